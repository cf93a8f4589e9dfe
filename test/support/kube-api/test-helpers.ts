// Helpers shared by the test server's own suites: Status of a client-node error, spawning kubectl.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Status } from './status.js';

/** The Status a failed client-node call carried (ApiException keeps the body as text). */
export const statusOf = (err: unknown): Status => {
  const body = (err as { body?: unknown }).body;
  if (typeof body === 'string') return JSON.parse(body) as Status;
  if (body && typeof body === 'object') return body as Status;
  throw new Error(`not an API error: ${String(err)}`);
};

/** Awaits a call expected to fail and returns its Status. */
export const failure = async (p: Promise<unknown>): Promise<Status> => {
  try {
    await p;
  } catch (e) {
    return statusOf(e);
  }
  throw new Error('the call succeeded');
};

export const KUBECTL = process.env.KUBECTL_BIN ?? '/usr/bin/kubectl';
export const hasKubectl = existsSync(KUBECTL);
/** kubectl as a need of a suite (test/support/needs.ts). */
export const kubectlAvailable = (): { ok: true } | { ok: false; reason: string } =>
  hasKubectl ? { ok: true } : { ok: false, reason: `${KUBECTL} is not installed (Debian package kubectl, or set KUBECTL_BIN)` };

export const kubectl = (args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(KUBECTL, [...args, '--request-timeout=10s'], { env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls until the check returns a truthy value (or throws after the timeout). */
export const eventually = async <T>(check: () => T | undefined | false, timeoutMs = 5000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
};
