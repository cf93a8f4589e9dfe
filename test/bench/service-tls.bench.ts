// The added cost of TLS on etcd, side by side in one run against two real etcd members on loopback: one in
// plaintext, one whose client port speaks only TLS and demands a client certificate, its certificate from the
// product's service CA (RSA 2048, as a node agent's key). Measured: a put then a get of a small key through
// etcd's v3 JSON gateway on one kept-alive connection and on a new connection each time (a full handshake, no
// session resumed: what a check pays), and the agents' own etcd checks (runCheck: etcd.health, etcd.kv).
// Then the same pairs interleaved (NAVIN_BENCH_PAIRS, default 150), so a burst of another job lands on both, and
// where a check's TLS time goes: a bare handshake against a TCP connect, the checks' judged handshake (tls.handshake,
// the first step of every check over TLS) against a bare one and against the server's session ticket.
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { runCheck } from '../../agent/checks';
import { startEtcd, type EtcdCluster } from '../support/services/etcd';
import { startTlsEtcd, type TlsEtcdMember } from '../support/services/etcd-tls';

let plain: EtcdCluster;
let secure: TlsEtcdMember;
let pem: { ca: Buffer; cert: Buffer; key: Buffer };
let n = 0;

const b64 = (s: string): string => Buffer.from(s).toString('base64');

/** One POST to the JSON gateway through `agent`, its answer parsed; a status other than 200 throws. */
function post(url: string, path: string, body: unknown, agent: HttpAgent): Promise<Record<string, unknown>> {
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(`${url}${path}`, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) reject(new Error(`${path}: HTTP ${res.statusCode} ${text}`));
        else resolve(JSON.parse(text) as Record<string, unknown>);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** A put of a small key, then a get of it (a linearizable range), the value checked. */
async function putGet(url: string, agent: HttpAgent): Promise<void> {
  const key = b64(`navin/bench/${n % 64}`);
  const value = b64(`value-${n++}`);
  await post(url, '/v3/kv/put', { key, value }, agent);
  const got = await post(url, '/v3/kv/range', { key }, agent);
  const kvs = got.kvs as { value?: string }[] | undefined;
  if (kvs?.[0]?.value !== value) throw new Error(`read ${JSON.stringify(kvs)} back, wrote ${value}`);
}

/** Agents of one connection: kept for the whole run, or made for one put+get and closed after it. */
const oneSocket = { keepAlive: true, maxSockets: 1 };
const kept = { plain: new HttpAgent(oneSocket), tls: undefined as HttpsAgent | undefined };
const tlsAgent = (): HttpsAgent => new HttpsAgent({ ...oneSocket, ca: pem.ca, cert: pem.cert, key: pem.key });

async function freshPutGet(url: string, agent: HttpAgent): Promise<void> {
  try {
    await putGet(url, agent);
  } finally {
    agent.destroy();
  }
}

const cases = {
  keptTls: () => putGet(secure.clientUrl, kept.tls!),
  keptPlain: () => putGet(plain.endpoints[0]!, kept.plain),
  freshTls: () => freshPutGet(secure.clientUrl, tlsAgent()),
  freshPlain: () => freshPutGet(plain.endpoints[0]!, new HttpAgent(oneSocket)),
  healthTls: () => passes('etcd.health', { port: secure.clientPort, tls: secure.tls }),
  healthPlain: () => passes('etcd.health', { port: plain.members[0]!.clientPort }),
  kvTls: () => passes('etcd.kv', { endpoints: [secure.clientUrl], tls: secure.tls }),
  kvPlain: () => passes('etcd.kv', { endpoints: plain.endpoints }),
  gate: () => passes('tls.handshake', { host: '127.0.0.1', port: secure.clientPort, ...secure.tls }),
  handshake: () => connected(tlsTo, 'secureConnect'),
  // A Go server (etcd, NATS, the node exporter) sends its TLS 1.3 session ticket once it has accepted the client's
  // certificate, and an alert when it refuses it: the earliest moment a client can know it was let in.
  ticket: () => connected(tlsTo, 'session'),
  tcp: () => connected(() => netConnect({ host: '127.0.0.1', port: plain.members[0]!.clientPort }), 'connect'),
};

async function passes(kind: string, params: unknown): Promise<void> {
  const outcome = await runCheck(kind, params);
  if (outcome.status !== 'pass') throw new Error(`${kind}: ${outcome.status} ${JSON.stringify(outcome.error)}`);
}

const tlsTo = (): Socket => tlsConnect({ host: '127.0.0.1', port: secure.clientPort, ca: pem.ca, cert: pem.cert, key: pem.key });

/** Resolves once the socket made by open() emits `ready`, and closes it; fails after 5 s without it. */
function connected(open: () => Socket, ready: 'connect' | 'secureConnect' | 'session'): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = open();
    const timer = setTimeout(() => {
      s.destroy();
      reject(new Error(`no ${ready} within 5 s`));
    }, 5_000);
    s.once(ready, () => {
      clearTimeout(timer);
      s.destroy();
      resolve();
    });
    s.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

beforeAll(async () => {
  [plain, secure] = await Promise.all([startEtcd(1), startTlsEtcd()]);
  pem = { ca: readFileSync(secure.tls.ca_file), cert: readFileSync(secure.tls.cert_file), key: readFileSync(secure.tls.key_file) };
  kept.tls = tlsAgent();
  // Each path once first: connections open, etcd's gateway and both members warm before the measured runs.
  for (const c of Object.values(cases)) await c();
}, 60_000);

const opts = { time: 3_000 };

describe('etcd put+get through the v3 JSON gateway, one kept-alive connection', () => {
  bench('TLS with a client certificate', cases.keptTls, opts);
  bench('plaintext (baseline)', cases.keptPlain, opts);
});

describe('etcd put+get, a new connection for each put+get (full handshake, as a check makes)', () => {
  bench('TLS with a client certificate', cases.freshTls, opts);
  bench('plaintext (baseline)', cases.freshPlain, opts);
});

describe("the agents' etcd liveness check (etcd.health: GET /health), runCheck", () => {
  bench('TLS: handshake judged, then the request with the client certificate', cases.healthTls, opts);
  bench('plaintext (baseline)', cases.healthPlain, opts);
});

describe("the agents' etcd functional check (etcd.kv: put, get, delete over gRPC), runCheck", () => {
  bench('TLS: handshake judged, then the gRPC client with the client certificate', cases.kvTls, opts);
  bench('plaintext (baseline)', cases.kvPlain, opts);
});

const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;

afterAll(async () => {
  const lines: string[] = [];
  if (secure && plain) {
    const pairs = Number(process.env.NAVIN_BENCH_PAIRS ?? 150);
    const rows = [
      ['put+get, kept-alive connection', cases.keptTls, cases.keptPlain],
      ['put+get, new connection each', cases.freshTls, cases.freshPlain],
      ['etcd.health check', cases.healthTls, cases.healthPlain],
      ['etcd.kv check', cases.kvTls, cases.kvPlain],
      ['connection alone: TLS handshake with the client certificate / TCP connect', cases.handshake, cases.tcp],
      // The first step of every check over TLS, as a check of its own: the handshake judged, against a bare one.
      ['tls.handshake check / bare TLS handshake with the client certificate', cases.gate, cases.handshake],
      [
        "tls.handshake check / bare TLS handshake until the server's session ticket (client certificate accepted)",
        cases.gate,
        cases.ticket,
      ],
    ] as const;
    for (const [name, withTls, without] of rows) {
      const took: { tls: number[]; plain: number[] } = { tls: [], plain: [] };
      for (let i = 0; i < pairs; i++)
        for (const [side, fn] of [
          ['tls', withTls],
          ['plain', without],
        ] as const) {
          const start = process.hrtime.bigint();
          await fn();
          took[side].push(Number(process.hrtime.bigint() - start) / 1e6);
        }
      const [t50, p50] = [pct(took.tls, 50), pct(took.plain, 50)];
      lines.push(
        `${name}, ${pairs} interleaved pairs: TLS p50 ${t50.toFixed(2)} ms (p90 ${pct(took.tls, 90).toFixed(2)}), ` +
          `plaintext p50 ${p50.toFixed(2)} ms (p90 ${pct(took.plain, 90).toFixed(2)}): TLS/plaintext ${(t50 / p50).toFixed(2)}x, +${(t50 - p50).toFixed(2)} ms`,
      );
    }
  }
  kept.plain.destroy();
  kept.tls?.destroy();
  await Promise.all([plain?.close(), secure?.close()]);
  if (lines.length) process.stdout.write(`\n${lines.join('\n')}\n`);
}, 600_000);
