// The agent's gateway client bounds a whole call, not only its silences: a gateway that trickles bytes or
// sends an endless answer fails the call (GatewayUnreachable) instead of holding the agent or its memory.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { gatewayClient, GatewayUnreachable, MAX_RETRY_AFTER_S, retryAfterOf } from '../../agent/gateway-client';
import type { CommonConfig, Identity } from '../../agent/identity';
import { issueServerCert, testCas } from '../support/tls-endpoints';

let server: Server;
let identity: Identity<CommonConfig>;

beforeAll(async () => {
  const ca = testCas().trusted;
  const cert = issueServerCert(ca, ['127.0.0.1'], new Date(Date.now() - 60_000), new Date(Date.now() + 3_600_000));
  server = createServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url?.startsWith('/trickle')) {
      // A byte every 200 ms: never idle long enough for the idle timeout, never done.
      const timer = setInterval(() => res.write(' '), 200);
      res.on('close', () => clearInterval(timer));
      return;
    }
    // An answer without end, as fast as the client reads it.
    const chunk = Buffer.alloc(1 << 20, 0x20);
    const more = (): void => void (!res.destroyed && res.write(chunk, () => setImmediate(more)));
    more();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  identity = {
    config: { gateway_url: `https://127.0.0.1:${port}`, server_name: '127.0.0.1' } as CommonConfig,
    trustedKeys: new Map(),
    certPem: cert.certPem,
    keyPem: cert.keyPem,
    caPem: ca.certPem,
  };
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('a gateway that trickles bytes fails the long poll once its whole time is up', async () => {
  const client = gatewayClient(identity, 'r1', '1.0.0', { commands: '/trickle', report: '/r', receipts: '/trickle-receipts' });
  try {
    // commands(0) allows 10 s in all.
    await expect(client.commands(0)).rejects.toBeInstanceOf(GatewayUnreachable);
  } finally {
    client.close();
  }
}, 20_000);

test('an answer without end is refused past its limit, not buffered', async () => {
  const client = gatewayClient(identity, 'r1', '1.0.0', { commands: '/endless', report: '/r', receipts: '/endless-receipts' });
  try {
    await expect(client.receipts([])).rejects.toThrow(/MiB/);
  } finally {
    client.close();
  }
}, 20_000);

test('after a 429 no call leaves before its Retry-After; the call in between is refused with it', async () => {
  const ca = testCas().trusted;
  const cert = issueServerCert(ca, ['127.0.0.1'], new Date(Date.now() - 60_000), new Date(Date.now() + 3_600_000));
  const seen: number[] = [];
  const limited = createServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
    seen.push(performance.now());
    req.resume();
    // The second request is refused with a 2 s Retry-After; the others are answered.
    if (seen.length === 2) {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' });
      return void res.end('{"error":{"code":"rate_limited","message":"slow down"}}');
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"accepted":[]}');
  });
  await new Promise<void>((resolve) => limited.listen(0, '127.0.0.1', resolve));
  const port = (limited.address() as AddressInfo).port;
  const client = gatewayClient(
    { ...identity, config: { gateway_url: `https://127.0.0.1:${port}`, server_name: '127.0.0.1' } as CommonConfig },
    'r1',
    '1.0.0',
  );
  try {
    await client.receipts([]);
    const refusal = await client.receipts([]).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(GatewayUnreachable);
    expect(refusal).toMatchObject({ status: 429, retryAfterS: 2 });
    await client.report({});
    expect(seen).toHaveLength(3);
    expect(seen[2]! - seen[1]!).toBeGreaterThanOrEqual(1_900);
  } finally {
    client.close();
    await new Promise<void>((resolve) => limited.close(() => resolve()));
  }
}, 20_000);

test('Retry-After is read as seconds or an HTTP date, at least 1 s and at most MAX_RETRY_AFTER_S', () => {
  expect(retryAfterOf('7')).toBe(7);
  expect(retryAfterOf('0')).toBe(1);
  expect(retryAfterOf('999999')).toBe(MAX_RETRY_AFTER_S);
  expect(retryAfterOf(new Date(Date.now() + 30_000).toUTCString())).toBeGreaterThan(25);
  expect(retryAfterOf('soon')).toBeUndefined();
  expect(retryAfterOf(undefined)).toBeUndefined();
});
