// Fetches an artifact by digest over HTTPS (the internal mirror), streaming into a temp file beside its target
// while hashing; only bytes that hash to the signed digest are renamed into place. No proxy, TLS 1.2+, the
// task's CA when it names one, redirects followed on https only.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { basename, dirname, join } from 'node:path';
import type { FetchTask } from '../../main/wire/plan';
import { ExecutionError } from '../commands';
import { syncDir } from './managed-fs';

const MAX_REDIRECTS = 5;
const IDLE_TIMEOUT_MS = 60_000;

export interface Fetched {
  sha256: string;
  size: number;
  url: string;
}

export async function fetchArtifact(task: FetchTask, real: string, mode: number): Promise<Fetched> {
  const agent = new Agent({ ca: task.ca_pem, minVersion: 'TLSv1.2', keepAlive: false });
  const tmp = join(dirname(real), `.${basename(real)}.navin-${randomBytes(4).toString('hex')}`);
  try {
    let url = new URL(task.url);
    for (let hop = 0; ; hop++) {
      const got = await download(url, agent, tmp, mode, task.size);
      if ('redirect' in got) {
        if (hop >= MAX_REDIRECTS)
          throw new ExecutionError('artifact_fetch_failed', `more than ${MAX_REDIRECTS} redirects from ${task.url}`);
        url = new URL(got.redirect, url);
        if (url.protocol !== 'https:') throw new ExecutionError('artifact_fetch_failed', `redirected off https to ${url.origin}`);
        continue;
      }
      const digest = `sha256:${got.sha256}`;
      if (digest !== task.digest)
        throw new ExecutionError('digest_mismatch', `${url.href} hashed to ${digest}, not the signed ${task.digest}: not installed`);
      if (task.size !== undefined && got.size !== task.size)
        throw new ExecutionError('digest_mismatch', `${url.href} is ${got.size} bytes, not ${task.size}`);
      renameSync(tmp, real);
      syncDir(dirname(real));
      return { sha256: got.sha256, size: got.size, url: url.href };
    }
  } finally {
    rmSync(tmp, { force: true });
    agent.destroy();
  }
}

function download(
  url: URL,
  agent: Agent,
  tmp: string,
  mode: number,
  maxSize: number | undefined,
): Promise<{ redirect: string } | { sha256: string; size: number }> {
  return new Promise((resolve, reject) => {
    const fail = (message: string): void => reject(new ExecutionError('artifact_fetch_failed', message));
    const req = request(url, { method: 'GET', agent, timeout: IDLE_TIMEOUT_MS, headers: { Accept: '*/*' } }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        return resolve({ redirect: res.headers.location });
      }
      if (status !== 200) {
        res.resume();
        return fail(`GET ${url.href} answered HTTP ${status}`);
      }
      const hash = createHash('sha256');
      let size = 0;
      let fd: number;
      try {
        fd = openSync(tmp, 'w', mode);
      } catch (error) {
        res.resume();
        return reject(new ExecutionError('file_write_failed', `cannot write ${tmp}: ${(error as Error).message}`));
      }
      let stopped = false;
      // A write that fails (a full disk) or a body longer than signed ends the download as a failed task: thrown
      // in this handler, it was uncaught and took the agent down, then again at every restart of the plan.
      const stop = (error: ExecutionError): void => {
        stopped = true;
        try {
          closeSync(fd);
        } catch {
          // already closed
        }
        res.destroy();
        reject(error);
      };
      res.on('data', (chunk: Buffer) => {
        if (stopped) return;
        size += chunk.length;
        if (maxSize !== undefined && size > maxSize)
          return stop(new ExecutionError('digest_mismatch', `${url.href} is longer than the signed ${maxSize} bytes: not installed`));
        hash.update(chunk);
        try {
          writeSync(fd, chunk);
        } catch (error) {
          stop(new ExecutionError('file_write_failed', `cannot write ${tmp}: ${(error as Error).message}`));
        }
      });
      res.on('end', () => {
        if (stopped) return;
        try {
          fsyncSync(fd);
          closeSync(fd);
        } catch (error) {
          return reject(new ExecutionError('file_write_failed', (error as Error).message));
        }
        if (!res.complete) return fail(`GET ${url.href}: the connection closed before the end of the body`);
        resolve({ sha256: hash.digest('hex'), size });
      });
      res.on('error', (e) => {
        if (!stopped) stop(new ExecutionError('artifact_fetch_failed', `GET ${url.href}: ${e.message}`));
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no data for ${IDLE_TIMEOUT_MS / 1000} s`)));
    req.on('error', (e) => fail(`GET ${url.href}: ${(e as NodeJS.ErrnoException).code ?? e.message}`));
    req.end();
  });
}
