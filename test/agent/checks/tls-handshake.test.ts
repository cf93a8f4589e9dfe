// The tls.handshake check against real TLS listeners on loopback: each verdict of the manager's probe, judged at
// the check's clock, with the certificate as evidence (days left whole: a year's certificate, its seconds cut, has
// 364); a certificate expiring in 5 days passes with a warning.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCheck } from '../../../agent/checks';
import { closedPort, startPlainTcp, startTlsEndpoint, testCas, type TestEndpoint } from '../../support/tls-endpoints';
import { tempDir } from '../../support/temp-dir';

const DAY = 86_400_000;
const dir = tempDir('navin-tls-handshake-');
const caFile = join(dir.path, 'ca.pem');
const endpoints: Partial<Record<'valid' | 'expiring' | 'expired' | 'untrusted' | 'wrong-name', TestEndpoint>> = {};

beforeAll(async () => {
  writeFileSync(caFile, testCas().trusted.certPem);
  for (const kind of ['valid', 'expiring', 'expired', 'untrusted', 'wrong-name'] as const)
    endpoints[kind] = await startTlsEndpoint({ kind, serverName: 'endpoint.navin.test' });
});
afterAll(async () => {
  for (const e of Object.values(endpoints)) await e.stop();
  dir.remove();
});

const check = (kind: keyof typeof endpoints, extra: Record<string, unknown> = {}, now?: Date) =>
  runCheck(
    'tls.handshake',
    { host: '127.0.0.1', port: endpoints[kind]!.port, ca_file: caFile, server_name: 'endpoint.navin.test', ...extra },
    now ? { now: () => now } : {},
  );

test('a trusted certificate passes with its evidence; one expiring in 5 days passes with a warning', async () => {
  const ok = await check('valid');
  expect(ok).toMatchObject({ status: 'pass', evidence: { verdict: 'ok' } });
  expect(ok.warning).toBeUndefined();
  expect(ok.evidence.tls).toEqual([
    expect.objectContaining({
      target: `127.0.0.1:${endpoints.valid!.port}`,
      server_name: 'endpoint.navin.test',
      protocol: 'TLSv1.3',
      certificate: expect.objectContaining({ subject: 'CN=endpoint.navin.test', issuer: 'CN=Navin Test CA', days_left: 364 }),
    }),
  ]);

  const soon = await check('expiring');
  expect(soon).toMatchObject({
    status: 'pass',
    evidence: { verdict: 'expiring' },
    warning: { code: 'tls_expiring', message: expect.stringMatching(/expires in 5 days.*under the 14-day notice/) },
  });
  expect(soon.error).toBeUndefined();
  expect((soon.evidence.tls as { certificate: { days_left: number; not_after: string } }[])[0]!.certificate).toMatchObject({
    days_left: 5,
    // X.509 keeps whole seconds.
    not_after: endpoints.expiring!.notAfter.toISOString().replace(/\.\d+Z$/, '.000Z'),
  });
});

test('expired, untrusted and another name fail with their own codes, the certificate still in evidence', async () => {
  expect(await check('expired')).toMatchObject({ status: 'fail', error: { code: 'tls_expired' }, evidence: { verdict: 'expired' } });
  const untrusted = await check('untrusted');
  expect(untrusted).toMatchObject({
    status: 'fail',
    error: { code: 'tls_untrusted', message: expect.stringContaining('CN=Some Other CA') },
    evidence: { verdict: 'untrusted', error_code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' },
  });
  expect(untrusted.evidence.tls).toEqual([
    expect.objectContaining({ certificate: expect.objectContaining({ issuer: 'CN=Some Other CA' }) }),
  ]);
  expect(await check('wrong-name')).toMatchObject({
    status: 'fail',
    error: { code: 'tls_name_mismatch' },
    evidence: { verdict: 'name_mismatch' },
  });
});

test('the time is the check clock: a valid certificate judged 10 months on warns, 13 months on is expired', async () => {
  expect(await check('valid', {}, new Date(Date.now() + 360 * DAY))).toMatchObject({ status: 'pass', warning: { code: 'tls_expiring' } });
  expect(await check('valid', {}, new Date(Date.now() + 400 * DAY))).toMatchObject({ status: 'fail', error: { code: 'tls_expired' } });
});

test('a plaintext port is not_tls, a closed port unreachable, an unreadable CA file params_invalid', async () => {
  const plain = await startPlainTcp();
  try {
    const outcome = await runCheck('tls.handshake', { host: '127.0.0.1', port: plain.port, ca_file: caFile });
    expect(outcome).toMatchObject({
      status: 'fail',
      error: { code: 'not_tls', message: expect.stringContaining(`127.0.0.1:${plain.port}`) },
      evidence: { verdict: 'not_tls' },
    });
  } finally {
    await plain.stop();
  }
  const closed = await closedPort();
  expect(await runCheck('tls.handshake', { host: '127.0.0.1', port: closed, ca_file: caFile })).toMatchObject({
    status: 'fail',
    error: { code: 'unreachable' },
    evidence: { verdict: 'unreachable' },
  });
  expect(await check('valid', { ca_file: join(dir.path, 'none.pem') })).toMatchObject({
    status: 'fail',
    error: { code: 'params_invalid', message: expect.stringContaining('none.pem') },
  });
});
