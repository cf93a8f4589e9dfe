// The http kind over https verifies the server's certificate against the CA file the catalog names (a PEM on
// the agent's host), else the system's CAs: a certificate of another CA fails as tls_untrusted, an expired one
// as tls_expired.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCheck } from '../../../agent/checks';
import { issueServerCert, testCas } from '../../support/tls-endpoints';
import { tempDir } from '../../support/temp-dir';

const DAY = 86_400_000;
const dir = tempDir('navin-checks-tls-');
const servers: Server[] = [];
let valid = 0;
let expired = 0;
const caFile = join(dir.path, 'ca.pem');
const otherCaFile = join(dir.path, 'other-ca.pem');

async function serve(notAfter: Date): Promise<number> {
  const { trusted } = testCas();
  const leaf = issueServerCert(trusted, ['127.0.0.1'], new Date(Date.now() - 2 * DAY), notAfter);
  const server = createServer({ cert: leaf.certPem, key: leaf.keyPem }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"status":"ok"}');
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as { port: number }).port;
}

beforeAll(async () => {
  const { trusted, other } = testCas();
  writeFileSync(caFile, trusted.certPem);
  writeFileSync(otherCaFile, other.certPem);
  valid = await serve(new Date(Date.now() + 30 * DAY));
  expired = await serve(new Date(Date.now() - DAY));
});
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  dir.remove();
});

test('https liveness passes with the CA file that signed the certificate', async () => {
  const outcome = await runCheck('http', { port: valid, path: '/healthz', scheme: 'https', ca_file: caFile });
  expect(outcome.status, JSON.stringify(outcome.error)).toBe('pass');
  expect(outcome.evidence).toMatchObject({ status: 200, body: '{"status":"ok"}' });
  expect(outcome.method).toContain(caFile);
  // The same CA given as a tls block: the handshake is judged first and is in the evidence.
  const viaTls = await runCheck('http', { port: valid, path: '/healthz', scheme: 'https', tls: { ca_file: caFile } });
  expect(viaTls.status, JSON.stringify(viaTls.error)).toBe('pass');
  expect(viaTls.evidence.tls).toEqual([expect.objectContaining({ target: `127.0.0.1:${valid}`, client_certificate: false })]);
});

test('another CA or the system CAs fail as tls_untrusted, an expired certificate as tls_expired; an unreadable CA file is named', async () => {
  for (const [params, code] of [
    [{ port: valid, ca_file: otherCaFile }, 'tls_untrusted'],
    [{ port: valid }, 'tls_untrusted'],
    [{ port: expired, ca_file: caFile }, 'tls_expired'],
    [{ port: valid, tls: { ca_file: otherCaFile } }, 'tls_untrusted'],
    [{ port: expired, tls: { ca_file: caFile } }, 'tls_expired'],
  ] as const) {
    const outcome = await runCheck('http', { path: '/healthz', scheme: 'https', ...params });
    expect(outcome, JSON.stringify(params)).toMatchObject({ status: 'fail', error: { code } });
  }
  const missing = await runCheck('http', { port: valid, path: '/', scheme: 'https', ca_file: join(dir.path, 'none.pem') });
  expect(missing).toMatchObject({ status: 'fail', error: { code: 'params_invalid', message: expect.stringContaining('none.pem') } });
});
