// A real DNS server on loopback for the DNS probes: Debian's dnsmasq in the foreground, authoritative for the
// zones of the given records (a name outside them gets NXDOMAIN, not a refusal), on a free port.
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as dns } from 'node:dns';
import dgram from 'node:dgram';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { userInfo } from 'node:os';
import { delimiter, join } from 'node:path';

export interface DnsServer {
  servers: string[];
  stop(): Promise<void>;
}

export function dnsmasqPath(): string | null {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/sbin'];
  for (const d of dirs) if (d && existsSync(join(d, 'dnsmasq'))) return join(d, 'dnsmasq');
  return null;
}

/** A port free for both UDP and TCP at the moment of asking. */
async function freePort(): Promise<number> {
  for (;;) {
    const udp = dgram.createSocket('udp4');
    const port = await new Promise<number>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(0, '127.0.0.1', () => resolve(udp.address().port));
    });
    const tcpFree = await new Promise<boolean>((resolve) => {
      const s = net.createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    await new Promise<void>((resolve) => udp.close(() => resolve()));
    if (tcpFree) return port;
  }
}

const zoneOf = (name: string): string => name.replace(/\.$/, '').split('.').slice(-1)[0]!;

export async function startDnsServer(opts: { records?: Record<string, string>; ptr?: Record<string, string> }): Promise<DnsServer> {
  const bin = dnsmasqPath();
  if (!bin) throw new Error('dnsmasq is not installed (Debian package dnsmasq-base)');
  const records = Object.entries(opts.records ?? {});
  const ptrs = Object.entries(opts.ptr ?? {});
  const zones = new Set([...records.map(([n]) => zoneOf(n)), ...ptrs.map(([, n]) => zoneOf(n))]);
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const args = [
      '--keep-in-foreground',
      `--port=${port}`,
      '--listen-address=127.0.0.1',
      '--bind-interfaces',
      '--no-resolv',
      '--no-hosts',
      '--conf-file=/dev/null',
      '--pid-file=',
      '--log-facility=-',
      // As root dnsmasq drops to nobody; staying the current user keeps it killable and changes nothing.
      `--user=${userInfo().username}`,
      '--local=/in-addr.arpa/',
      '--local=/ip6.arpa/',
      ...[...zones].map((z) => `--local=/${z}/`),
      // --address (A only, no PTR) so that a forward record never implies a reverse one: the tests set PTRs apart.
      ...records.map(([name, ip]) => `--address=/${name}/${ip}`),
      ...ptrs.map(([ip, name]) => `--ptr-record=${reverseName(ip)},${name}`),
    ];
    const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const servers = [`127.0.0.1:${port}`];
    if (await answers(child, servers)) return { servers, stop: () => stopChild(child) };
    await stopChild(child);
    if (!/address in use|failed to create listening socket/i.test(stderr)) throw new Error(`dnsmasq did not start: ${stderr.trim()}`);
  }
  throw new Error('dnsmasq could not bind a free port');
}

/** Polls until dnsmasq answers (any DNS answer, even NXDOMAIN, proves it listens), or it exits. */
async function answers(child: ChildProcess, servers: string[]): Promise<boolean> {
  const r = new dns.Resolver({ timeout: 200, tries: 1 });
  r.setServers(servers);
  for (let i = 0; i < 50; i++) {
    if (child.exitCode !== null) return false;
    try {
      await r.resolve4('probe.navin-dns-ready.');
      return true;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND' || code === 'EREFUSED' || code === 'ENODATA') return true;
    }
    await new Promise((res) => setTimeout(res, 50));
  }
  return false;
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export function reverseName(ip: string): string {
  if (net.isIPv4(ip)) return `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
  const full = new URL(`http://[${ip}]`).hostname.slice(1, -1);
  const groups = full.split(':');
  const gap = groups.indexOf('');
  const expanded =
    gap === -1
      ? groups
      : [...groups.slice(0, gap), ...Array(8 - groups.filter(Boolean).length).fill('0'), ...groups.slice(gap).filter(Boolean)];
  return `${expanded
    .map((g) => g.padStart(4, '0'))
    .join('')
    .split('')
    .reverse()
    .join('.')}.ip6.arpa`;
}
