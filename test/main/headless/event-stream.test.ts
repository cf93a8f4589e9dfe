// The live event stream of headless mode judges its credential before every event: after a logout the stream
// ends instead of going on carrying the core's events.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { request } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { SESSION_COOKIE } from '../../../main/headless/cookies';
import { testManager, type TestManager } from '../../support/manager';
import { startListeners, type RunningListeners } from '../../support/listeners';

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

test('a stream ends at the first event after its session was closed', async () => {
  const creds = await t.login('vera', 'viewer');
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(
      new URL('/api/v1/events', listeners.console.url),
      { ca: t.manager.ca.certPem, headers: { Cookie: `${SESSION_COOKIE}=${creds.session}` } },
      resolve,
    );
    req.on('error', reject);
    req.end();
  });
  expect(res.statusCode).toBe(200);
  let text = '';
  res.on('data', (c: Buffer) => (text += c.toString()));
  const ended = new Promise<void>((resolve) => res.on('end', () => resolve()));

  t.manager.events.emit('cluster.changed', { id: 'first' });
  await expect.poll(() => text).toContain('"first"');
  t.manager.accounts.logout(creds.session!, 'vera');
  t.manager.events.emit('cluster.changed', { id: 'after-logout' });
  await ended;
  expect(text).not.toContain('after-logout');
});
