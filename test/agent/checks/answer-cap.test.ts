// A check reads at most MAX_CHECK_ANSWER_BYTES of an answer: a service (or anything on its port) answering
// without end, or announcing a huge body, fails the check unexpected_response instead of filling the agent's memory.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCheck } from '../../../agent/checks';
import { getWithCa, httpCall, MAX_CHECK_ANSWER_BYTES } from '../../../agent/checks/http-call';

let server: Server;
let base = '';
let port = 0;
/** Bytes the server managed to write on the endless route, as a measure of what the client read. */
let written = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/announced') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(MAX_CHECK_ANSWER_BYTES * 4) });
      return void res.write('x');
    }
    if (req.url === '/small') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end('{"health":"true"}');
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    const chunk = Buffer.alloc(1 << 20, 0x61);
    const more = (): void => void (!res.destroyed && res.write(chunk, () => ((written += chunk.length), setImmediate(more))));
    more();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('an endless answer is cut at the cap by both HTTP readers, not buffered', async () => {
  written = 0;
  await expect(httpCall('GET', `${base}/endless`, 20_000)).rejects.toMatchObject({ code: 'unexpected_response' });
  expect(written).toBeLessThan(MAX_CHECK_ANSWER_BYTES * 3);
  written = 0;
  await expect(getWithCa(`${base}/endless`, 20_000)).rejects.toMatchObject({ code: 'unexpected_response' });
  expect(written).toBeLessThan(MAX_CHECK_ANSWER_BYTES * 3);
}, 30_000);

test('a body announced over the cap is refused before it is read', async () => {
  await expect(httpCall('GET', `${base}/announced`, 5_000)).rejects.toMatchObject({ code: 'unexpected_response' });
});

test('an answer under the cap is read as before', async () => {
  expect(await httpCall('GET', `${base}/small`, 5_000)).toMatchObject({ status: 200, json: { health: 'true' } });
});

test('the node exporter and http checks fail unexpected_response on an endless answer', async () => {
  const metrics = await runCheck('node_exporter.metrics', { url: `${base}/metrics`, timeout_ms: 20_000 });
  expect(metrics).toMatchObject({ status: 'fail', error: { code: 'unexpected_response' } });
  const http = await runCheck('http', { port, path: '/endless', timeout_ms: 20_000 });
  expect(http).toMatchObject({ status: 'fail', error: { code: 'unexpected_response' } });
}, 60_000);
