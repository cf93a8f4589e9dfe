// Why a burst of requests could end in ECONNRESET: Node closes an idle keep-alive connection after 5 s, and a
// client that reuses it at that moment (a pause between two batches on a loaded machine) has its request reset.
// Both listeners keep idle connections far longer than any such pause.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Agent, request } from 'node:https';
import { testManager, type TestManager } from '../../support/manager';
import { startListeners, type RunningListeners } from '../../support/listeners';
import { KEEP_ALIVE_TIMEOUT_MS } from '../../../main/core/http/connection-timeouts';

let t: TestManager;
let listeners: RunningListeners;
beforeAll(async () => {
  t = testManager();
  listeners = await startListeners(t);
});
afterAll(async () => {
  await listeners?.close();
  t?.close();
});

function get(agent: Agent): Promise<{ status: number; reused: boolean; keepAlive: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL('/api/v1/health', listeners.console.url), { agent }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket, keepAlive: res.headers['keep-alive'] as string | undefined }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

test('an idle keep-alive connection is still open, and reused, after a pause longer than Node’s default', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: t.manager.ca.certPem });
  try {
    const first = await get(agent);
    expect(first).toMatchObject({ status: 200, reused: false });
    expect(first.keepAlive).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
    await new Promise((r) => setTimeout(r, 6_500));
    expect(await get(agent)).toMatchObject({ status: 200, reused: true });
  } finally {
    agent.destroy();
  }
});

test('the gateway keeps idle connections as long', () => {
  expect(listeners.gateway.server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
  expect(listeners.console.server.headersTimeout).toBeGreaterThan(KEEP_ALIVE_TIMEOUT_MS);
});
