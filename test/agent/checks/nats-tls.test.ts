// NATS's checks over TLS against Debian's nats-server 2.9 with a tls block on loopback: the server sends its INFO
// in clear with tls_required and the client upgrades the same socket. The checks pass with the service's CA and
// carry the handshake's evidence; another CA fails them as untrusted; a plaintext server is named as such.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCheck } from '../../../agent/checks';
import { NATS_BIN, startNats, type NatsServer } from '../../support/services/nats';
import { freePorts } from '../../support/services/ports';
import { ServiceProcess, serviceDir } from '../../support/services/service-process';
import { writeServiceTls, type ServiceTlsFiles } from '../../support/service-tls';

const dir = serviceDir('navin-nats-tls-');
let files: ServiceTlsFiles;
let nats: ServiceProcess;
let clientPort = 0;
let monitorPort = 0;
const tls = () => ({ ca_file: files.caFile });

beforeAll(async () => {
  files = writeServiceTls(dir.path, 'nats');
  [clientPort, monitorPort] = (await freePorts(2)) as [number, number];
  const config = join(dir.path, 'nats.conf');
  // The monitoring port is an https_port: nats-server serves it with the same TLS block.
  writeFileSync(
    config,
    [
      `host: 127.0.0.1`,
      `port: ${clientPort}`,
      `https: "127.0.0.1:${monitorPort}"`,
      `jetstream { store_dir: "${dir.sub('store')}" }`,
      `tls { cert_file: "${files.certFile}", key_file: "${files.keyFile}", ca_file: "${files.caFile}", timeout: 2 }`,
    ].join('\n'),
  );
  nats = new ServiceProcess('nats-server (TLS)', NATS_BIN, ['-c', config]);
  await nats.start(async () => (await runCheck('tcp', { port: monitorPort, timeout_ms: 500 })).status === 'pass');
});
afterAll(async () => {
  await nats?.stop();
  dir.remove();
});

test('liveness, readiness and the functional test pass over TLS, each with the handshake in evidence', async () => {
  const live = await runCheck('nats.healthz', { monitor_port: monitorPort, tls: tls() });
  expect(live.status, JSON.stringify(live.error)).toBe('pass');
  expect(live.evidence.url).toBe(`https://127.0.0.1:${monitorPort}/healthz`);
  expect(live.evidence.tls).toEqual([
    expect.objectContaining({
      target: `127.0.0.1:${monitorPort}`,
      protocol: expect.stringMatching(/^TLSv1\.[23]$/),
      certificate: expect.objectContaining({ subject: 'CN=nats.127.0.0.1', issuer: 'CN=Navin Test CA', serial: files.serial }),
    }),
  ]);

  const ready = await runCheck('nats.jetstream', { monitor_port: monitorPort, client_port: clientPort, tls: tls() });
  expect(ready.status, JSON.stringify(ready.error)).toBe('pass');
  // The monitoring port once (for two URLs), the client port after its INFO in clear.
  const targets = (ready.evidence.tls as { target: string; nats?: { tls_required: boolean } }[]).map((e) => [
    e.target,
    e.nats?.tls_required,
  ]);
  expect(targets).toEqual([
    [`127.0.0.1:${monitorPort}`, undefined],
    [`127.0.0.1:${clientPort} (NATS: TLS after the INFO in clear)`, true],
  ]);

  const smoke = await runCheck('nats.pubsub', { endpoints: [`nats://127.0.0.1:${clientPort}`], jetstream: true, tls: tls() });
  expect(smoke.status, JSON.stringify(smoke.error)).toBe('pass');
  expect(smoke.steps?.every((s) => s.status === 'pass')).toBe(true);
  expect(smoke.evidence.tls).toEqual([expect.objectContaining({ server_name: '127.0.0.1', client_certificate: false })]);

  const handshake = await runCheck('tls.handshake', { host: '127.0.0.1', port: clientPort, ca_file: files.caFile, starttls: 'nats' });
  expect(handshake).toMatchObject({ status: 'pass', evidence: { verdict: 'ok' } });
  expect(handshake.warning).toBeUndefined();
});

test('another CA fails every check as untrusted; the plaintext client cannot pass a server that requires TLS', async () => {
  const wrong = { ca_file: files.otherCaFile };
  for (const [kind, params] of [
    ['nats.healthz', { monitor_port: monitorPort, tls: wrong }],
    ['nats.jetstream', { monitor_port: monitorPort, client_port: clientPort, tls: wrong }],
    ['nats.pubsub', { endpoints: [`nats://127.0.0.1:${clientPort}`], tls: wrong }],
    ['tls.handshake', { host: '127.0.0.1', port: clientPort, starttls: 'nats', ...wrong }],
  ] as const) {
    const outcome = await runCheck(kind, params);
    expect(outcome, kind).toMatchObject({ status: 'fail', error: { code: 'tls_untrusted' } });
  }
  const plain = await runCheck('nats.pubsub', { endpoints: [`nats://127.0.0.1:${clientPort}`], timeout_ms: 3000 });
  expect(plain.status).toBe('fail');
});

test('a plaintext NATS server: the handshake after its INFO says not_tls, naming it', async () => {
  let plain: NatsServer | undefined;
  try {
    plain = await startNats({ jetstream: false });
    const outcome = await runCheck('tls.handshake', { host: '127.0.0.1', port: plain.clientPort, ca_file: files.caFile, starttls: 'nats' });
    expect(outcome).toMatchObject({
      status: 'fail',
      error: { code: 'not_tls', message: expect.stringContaining(`127.0.0.1:${plain.clientPort}`) },
      evidence: { verdict: 'not_tls' },
    });
  } finally {
    await plain?.close();
  }
});
