// The services' own parsers, run on rendered configs: etcd's (a start on free loopback ports in a temp data dir,
// stopped as soon as it logs the configuration it parsed), nats-server's (`-t`, and a start whose /varz says what
// it read), and systemd's (`systemd-analyze verify`). A suite needing them runs where they are installed, is
// skipped with what is missing elsewhere, and fails under CI (needs.ts: a skipped suite proves nothing).
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describeNeeding, type Availability } from './needs';

/** A binary on the PATH, as describeNeeding takes it. */
export function binaryAvailable(name: string): Availability {
  return spawnSync(name, ['--version'], { stdio: 'ignore' }).error === undefined
    ? { ok: true }
    : { ok: false, reason: `${name} is not installed` };
}

/** A suite needing these binaries: skipped where one is missing, failed under CI (describeNeeding). */
export function describeWithBinaries(name: string, binaries: string[], body: () => void): void {
  describeNeeding(name, binaries.map(binaryAvailable), body);
}

/** What etcd logs as "starting an etcd server" (every field it parsed), or its error output when it refused the file. */
export async function etcdParsedConfig(dir: string, yaml: string): Promise<{ config: Record<string, unknown> } | { error: string }> {
  const file = join(dir, `etcd-${Date.now()}-${Math.random().toString(16).slice(2)}.yml`);
  writeFileSync(file, yaml);
  const etcd = spawn('etcd', ['--config-file', file], { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
  let log = '';
  try {
    return await new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ error: `no configuration logged in 20 s:\n${log}` }), 20_000);
      etcd.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        log += chunk;
        for (const line of log.split('\n')) {
          if (!line.includes('"msg":"starting an etcd server"')) continue;
          clearTimeout(timer);
          resolve({ config: JSON.parse(line) as Record<string, unknown> });
        }
      });
      etcd.once('exit', () => {
        clearTimeout(timer);
        resolve({ error: log });
      });
    });
  } finally {
    if (etcd.exitCode === null && etcd.signalCode === null) {
      const exited = new Promise((r) => etcd.once('exit', r));
      etcd.kill('SIGKILL');
      await exited;
    }
  }
}

/** nats-server -t on a config: null when valid, else what it said. */
export function natsCheck(dir: string, conf: string, name = 'check'): string | null {
  const file = join(dir, `${name}.conf`);
  writeFileSync(file, conf);
  const r = spawnSync('nats-server', ['-t', '-c', file], { encoding: 'utf8', timeout: 20_000 });
  return r.status === 0 ? null : `${r.stderr}${r.stdout}`;
}

function getJson(port: number, path: string): Promise<unknown> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, timeout: 1000 }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve(res.statusCode === 200 ? JSON.parse(body) : null));
    });
    req.on('error', () => resolve(null));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

/**
 * Starts nats-server on a config whose monitor listens on `monitorPort`, returns its /varz once `ready` says so
 * (the monitor answers before JetStream is enabled), and stops it.
 */
export async function natsVarz(
  dir: string,
  conf: string,
  monitorPort: number,
  ready: (varz: Record<string, any>) => boolean = () => true,
): Promise<Record<string, any> | { error: string }> {
  const file = join(dir, `varz-${monitorPort}.conf`);
  writeFileSync(file, conf);
  const nats = spawn('nats-server', ['-c', file], { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
  let log = '';
  nats.stderr.setEncoding('utf8').on('data', (c: string) => (log += c));
  try {
    for (let i = 0; i < 100 && nats.exitCode === null; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const varz = (await getJson(monitorPort, '/varz')) as Record<string, any> | null;
      if (varz && ready(varz)) return varz;
    }
    return { error: log };
  } finally {
    if (nats.exitCode === null && nats.signalCode === null) {
      const exited = new Promise((r) => nats.once('exit', r));
      nats.kill('SIGKILL');
      await exited;
    }
  }
}

/** systemd-analyze verify on units (one run for all): the lines it printed, each naming its unit file. */
export function systemdVerify(dir: string, units: { name: string; content: string }[]): { status: number | null; output: string } {
  const files = units.map((u) => {
    const file = join(dir, u.name);
    writeFileSync(file, u.content);
    return file;
  });
  const r = spawnSync('systemd-analyze', ['verify', '--man=no', '--generators=no', ...files], { encoding: 'utf8', timeout: 50_000 });
  return { status: r.status, output: `${r.stderr}${r.stdout}` };
}

/**
 * The argv systemd makes of an Exec line, step by step as systemd.service says: specifiers first (`%%` is `%`),
 * then words split at whitespace outside quotes with C escapes undone, then `$$` is `$` at execution. systemd
 * has no command that prints it, so the test follows the manual; `systemdVerify` proves systemd parses the line.
 */
export function systemdExecArgv(line: string): string[] {
  const s = line.replace(/%%/g, '%');
  const words: string[] = [];
  let i = 0;
  const bytes: number[] = [];
  const push = (text: string): void => void bytes.push(...Buffer.from(text, 'utf8'));
  while (i < s.length) {
    while (i < s.length && /\s/.test(s[i]!)) i++;
    if (i >= s.length) break;
    bytes.length = 0;
    let quote: string | null = null;
    for (; i < s.length; i++) {
      const c = s[i]!;
      if (!quote && /\s/.test(c)) break;
      if (!quote && (c === '"' || c === "'")) quote = c;
      else if (quote && c === quote) quote = null;
      else if (c === '\\') {
        const e = s[++i]!;
        const simple: Record<string, string> = {
          n: '\n',
          t: '\t',
          r: '\r',
          a: '\x07',
          b: '\b',
          f: '\f',
          v: '\v',
          s: ' ',
          '\\': '\\',
          '"': '"',
          "'": "'",
        };
        if (e in simple) push(simple[e]!);
        else if (e === 'x') {
          bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
          i += 2;
        } else if (e === 'u' || e === 'U') {
          const n = e === 'u' ? 4 : 8;
          push(String.fromCodePoint(parseInt(s.slice(i + 1, i + 1 + n), 16)));
          i += n;
        } else throw new Error(`an escape systemd refuses: \\${e}`);
      } else push(c);
    }
    if (quote) throw new Error('unbalanced quoting');
    words.push(Buffer.from(bytes).toString('utf8').replace(/\$\$/g, '$'));
  }
  return words;
}
