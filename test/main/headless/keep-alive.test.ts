// Why the end-to-end burst of cluster creations ended in ECONNRESET: Node closes an idle keep-alive connection
// after 5 s by default, and a client that sends its next request on it at that moment has it reset. Playwright's
// request context keeps its connections with an https.Agent({ keepAlive: true }) and no timeout of its own, and
// Node 20's agent then ignores the server's Keep-Alive hint, so the client never closes first: whenever a batch
// of requests took the server more than 5 s, the connections freed early in it were closed by the server just as
// the next batch went out on them. Both listeners keep idle connections far longer than any such pause.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Agent, request } from 'node:https';
import { testManager, type TestManager } from '../../support/manager';
import { startListeners, type RunningListeners } from '../../support/listeners';
import { KEEP_ALIVE_TIMEOUT_MS } from '../../../main/core/http/connection-timeouts';

let t: TestManager;
let listeners: RunningListeners;
let token: string;
beforeAll(async () => {
  t = testManager();
  listeners = await startListeners(t);
  await t.manager.accounts.addUser('alice', 'admin', 'correct horse battery', 'test');
  token = t.manager.accounts.createApiToken('alice', 'test');
});
afterAll(async () => {
  await listeners?.close();
  t?.close();
});

interface Answer {
  status: number;
  reused: boolean;
  keepAlive: string | undefined;
}

function call(agent: Agent, method: string, path: string, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, listeners.console.url),
      {
        method,
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket, keepAlive: res.headers['keep-alive'] as string | undefined }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Blocks this process without spinning: the listeners' timers cannot run, as when their loop is busy. */
const block = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

test('parallel requests sent on connections kept idle past 5 s while the server was busy are answered, not reset', async () => {
  // As Playwright's request context keeps them: keep-alive, no timeout of the client's own.
  const agent = new Agent({ keepAlive: true, ca: t.manager.ca.certPem });
  const batch = (n: number) =>
    Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => call(agent, 'POST', '/api/v1/clusters', { name: `bulk-${n}-${String(i).padStart(2, '0')}` })),
    );
  try {
    const first = await batch(0);
    expect(first.map((r) => (r.status === 'fulfilled' ? r.value.status : r.reason))).toEqual(Array(50).fill(201));
    // The connections sit idle past Node's default while the server is busy; the next batch goes out on them
    // before the server's loop turns again, which is when its idle timers fire.
    block(5_500);
    const second = await batch(1);
    const outcomes: Record<string, number> = {};
    for (const r of second) {
      const kind = r.status === 'fulfilled' ? `${r.value.status}${r.value.reused ? ' reused' : ''}` : String(r.reason);
      outcomes[kind] = (outcomes[kind] ?? 0) + 1;
    }
    expect(outcomes).toEqual({ '201 reused': 50 });
  } finally {
    agent.destroy();
  }
  expect(t.manager.clusters.list()).toHaveLength(100);
}, 30_000);

test('the console announces its keep-alive timeout; the gateway keeps idle connections as long; no headers timer cuts a kept one first', async () => {
  const agent = new Agent({ keepAlive: true, ca: t.manager.ca.certPem });
  try {
    expect((await call(agent, 'GET', '/api/v1/health')).keepAlive).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
  } finally {
    agent.destroy();
  }
  expect(listeners.gateway.server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
  expect(listeners.console.server.headersTimeout).toBeGreaterThan(KEEP_ALIVE_TIMEOUT_MS);
});
