// etcd's checks over TLS against Debian's etcd 3.4 with client-transport-security and client-cert-auth on
// loopback: they pass with the service's CA and certificate and carry the handshake's evidence; another CA fails
// them as untrusted, and without a client certificate etcd refuses them.
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCheck } from '../../../agent/checks';
import { ETCD_BIN } from '../../support/services/etcd';
import { freePorts } from '../../support/services/ports';
import { ServiceProcess, serviceDir } from '../../support/services/service-process';
import { writeServiceTls, type ServiceTlsFiles } from '../../support/service-tls';

const dir = serviceDir('navin-etcd-tls-');
let files: ServiceTlsFiles;
let etcd: ServiceProcess;
let port = 0;
let endpoint = '';
const tls = () => ({ ca_file: files.caFile, cert_file: files.certFile, key_file: files.keyFile });

/** etcd answers /health over TLS to a client with the certificate: ready. */
function healthy(): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(
      `${endpoint}/health`,
      { ca: readFileSync(files.caFile), cert: readFileSync(files.certFile), key: readFileSync(files.keyFile), timeout: 1000 },
      (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      },
    );
    req.on('error', () => resolve(false));
    req.end();
  });
}

beforeAll(async () => {
  files = writeServiceTls(dir.path, 'etcd');
  const [client, peer] = (await freePorts(2)) as [number, number];
  port = client;
  endpoint = `https://127.0.0.1:${client}`;
  etcd = new ServiceProcess('etcd (TLS)', ETCD_BIN, [
    '--name=m1',
    `--data-dir=${dir.sub('m1')}`,
    `--listen-client-urls=${endpoint}`,
    `--advertise-client-urls=${endpoint}`,
    `--listen-peer-urls=http://127.0.0.1:${peer}`,
    `--initial-advertise-peer-urls=http://127.0.0.1:${peer}`,
    `--initial-cluster=m1=http://127.0.0.1:${peer}`,
    `--cert-file=${files.certFile}`,
    `--key-file=${files.keyFile}`,
    `--trusted-ca-file=${files.caFile}`,
    '--client-cert-auth',
    '--logger=zap',
    '--log-outputs=stderr',
  ]);
  await etcd.start(healthy);
});
afterAll(async () => {
  await etcd?.stop();
  dir.remove();
});

test('liveness, readiness and the functional test pass over TLS with a client certificate, the handshake in evidence', async () => {
  const live = await runCheck('etcd.health', { port, tls: tls() });
  expect(live.status, JSON.stringify(live.error)).toBe('pass');
  expect(live.evidence).toMatchObject({ url: `${endpoint}/health`, status: 200 });
  expect(live.method).toContain(files.caFile);
  const [hs] = live.evidence.tls as Record<string, unknown>[];
  expect(hs).toMatchObject({
    target: `127.0.0.1:${port}`,
    server_name: '127.0.0.1',
    protocol: expect.stringMatching(/^TLSv1\.[23]$/),
    client_certificate: true,
    certificate: {
      subject: 'CN=etcd.127.0.0.1',
      issuer: 'CN=Navin Test CA',
      serial: files.serial,
      not_after: files.notAfter.toISOString().replace(/\.\d+Z$/, '.000Z'),
    },
  });

  // The clock is the check's: 30 days on, the same certificate has 30 days less.
  const later = new Date(Date.now() + 30 * 86_400_000);
  const ready = await runCheck('etcd.cluster', { endpoints: [endpoint], tls: tls() }, { now: () => later });
  expect(ready.status, JSON.stringify(ready.error)).toBe('pass');
  expect(ready.evidence.members).toEqual([expect.objectContaining({ name: 'm1', healthy: true })]);
  const days = (o: typeof live) => (o.evidence.tls as { certificate: { days_left: number } }[])[0]!.certificate.days_left;
  expect(days(live) - days(ready)).toBe(30);

  const smoke = await runCheck('etcd.kv', { endpoints: [endpoint], tls: tls() });
  expect(smoke.status, JSON.stringify(smoke.error)).toBe('pass');
  expect(smoke.steps?.map((s) => [s.name, s.status])).toEqual([
    ['put', 'pass'],
    ['get', 'pass'],
    ['delete', 'pass'],
  ]);
  expect((smoke.evidence.tls as unknown[]).length).toBe(1);
});

test('another CA fails every check as untrusted, naming the certificate presented', async () => {
  const wrong = { ...tls(), ca_file: files.otherCaFile };
  for (const [kind, params] of [
    ['etcd.health', { port, tls: wrong }],
    ['etcd.cluster', { endpoints: [endpoint], tls: wrong }],
    ['etcd.kv', { endpoints: [endpoint], tls: wrong }],
  ] as const) {
    const outcome = await runCheck(kind, params);
    expect(outcome, kind).toMatchObject({
      status: 'fail',
      error: { code: 'tls_untrusted', message: expect.stringContaining('CN=etcd.127.0.0.1') },
    });
  }
  // The functional test wrote nothing: it stopped at the handshake, before its first step.
  expect((await runCheck('etcd.kv', { endpoints: [endpoint], tls: wrong })).steps).toEqual([]);
});

test('without a client certificate etcd refuses: the checks fail as tls_refused, and a plaintext client as well', async () => {
  const noCert = { ca_file: files.caFile };
  expect(await runCheck('etcd.health', { port, tls: noCert })).toMatchObject({ status: 'fail', error: { code: 'tls_refused' } });
  expect(await runCheck('etcd.kv', { endpoints: [endpoint], tls: noCert, timeout_ms: 3000 })).toMatchObject({
    status: 'fail',
    error: { code: 'tls_refused' },
  });
  expect(await runCheck('tls.handshake', { host: '127.0.0.1', port, ca_file: files.caFile })).toMatchObject({
    status: 'fail',
    error: { code: 'tls_refused' },
    evidence: { verdict: 'refused' },
  });
  const handshake = await runCheck('tls.handshake', { host: '127.0.0.1', port, ...tls() });
  expect(handshake.status, JSON.stringify(handshake.error)).toBe('pass');
  expect(handshake.evidence.verdict).toBe('ok');
  // The catalog's plaintext check on a TLS member does not pass.
  expect((await runCheck('etcd.health', { port, timeout_ms: 2000 })).status).toBe('fail');
});

test("the handshake is settled by etcd's own word, a session ticket or an alert, not by the quiet period", async () => {
  const accepted = await runCheck('tls.handshake', { host: '127.0.0.1', port, ...tls() });
  expect(accepted.status, JSON.stringify(accepted.error)).toBe('pass');
  expect(accepted.evidence.tls).toEqual([expect.objectContaining({ protocol: 'TLSv1.3', settled_by: 'session_ticket' })]);
  // Without a client certificate etcd's alert refuses it: settled by the alert, never by waiting quietly.
  const refused = await runCheck('tls.handshake', { host: '127.0.0.1', port, ca_file: files.caFile });
  expect(refused.status).toBe('fail');
  expect(refused.error?.code).toBe('tls_refused');
  expect(JSON.stringify(refused.evidence)).not.toContain('settled_by');
});
