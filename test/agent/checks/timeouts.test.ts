// Every network call of every check is bounded: against a port that accepts connections and never answers,
// each kind fails as a timeout close to its timeout_ms instead of hanging, and no check throws.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCheck } from '../../../agent/checks';

let silent: Server;
let port = 0;
const sockets = new Set<Socket>();
beforeAll(async () => {
  silent = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  port = (silent.address() as { port: number }).port;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => silent.close(r));
});

const TIMEOUT = 700;
const cases = (): [string, Record<string, unknown>][] => [
  ['http', { port, path: '/' }],
  ['etcd.health', { port }],
  ['nats.healthz', { monitor_port: port }],
  ['etcd.cluster', { endpoints: [`http://127.0.0.1:${port}`] }],
  ['nats.jetstream', { monitor_port: port, client_port: port }],
  ['etcd.kv', { endpoints: [`http://127.0.0.1:${port}`] }],
  ['nats.pubsub', { endpoints: [`nats://127.0.0.1:${port}`] }],
  ['node_exporter.metrics', { url: `http://127.0.0.1:${port}/metrics` }],
  ['opa.policy', { url: `http://127.0.0.1:${port}` }],
  ['openfga.check', { url: `http://127.0.0.1:${port}` }],
];

test('each kind fails as a timeout against a silent port, within a few of its timeouts', async () => {
  for (const [kind, params] of cases()) {
    const t0 = performance.now();
    const outcome = await runCheck(kind, { ...params, timeout_ms: TIMEOUT });
    const elapsed = performance.now() - t0;
    expect(outcome, kind).toMatchObject({ kind, status: 'fail', error: { code: 'timeout' } });
    // A functional test makes its call and then its clean-up call, each bounded.
    expect(elapsed, kind).toBeLessThan(TIMEOUT * 4 + 1500);
  }
}, 60_000);
