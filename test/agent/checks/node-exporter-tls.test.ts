// The node exporter's checks over TLS against Debian's prometheus-node-exporter 1.5 with --web.config.file
// (tls_server_config) on loopback: liveness and the functional test pass with the service's CA and carry the
// handshake's evidence, another CA fails them as untrusted, and the exporter's old plaintext port is not_tls.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCheck } from '../../../agent/checks';
import { NODE_EXPORTER_BIN, startNodeExporter } from '../../support/services/node-exporter';
import { freePorts } from '../../support/services/ports';
import { ServiceProcess, serviceDir } from '../../support/services/service-process';
import { writeServiceTls, type ServiceTlsFiles } from '../../support/service-tls';

const dir = serviceDir('navin-node-exporter-tls-');
let files: ServiceTlsFiles;
let exporter: ServiceProcess;
let port = 0;
let url = '';

beforeAll(async () => {
  files = writeServiceTls(dir.path, 'node-exporter');
  [port] = (await freePorts(1)) as [number];
  url = `https://127.0.0.1:${port}/metrics`;
  const config = join(dir.path, 'web.yml');
  writeFileSync(config, `tls_server_config:\n  cert_file: ${files.certFile}\n  key_file: ${files.keyFile}\n`);
  exporter = new ServiceProcess('node exporter (TLS)', NODE_EXPORTER_BIN, [
    `--web.listen-address=127.0.0.1:${port}`,
    `--web.config.file=${config}`,
  ]);
  await exporter.start(async () => (await runCheck('tcp', { port, timeout_ms: 500 })).status === 'pass');
});
afterAll(async () => {
  await exporter?.stop();
  dir.remove();
});

test('liveness (http over https) and the functional test pass over TLS, with the handshake in evidence', async () => {
  const live = await runCheck('http', { port, path: '/metrics', scheme: 'https', expect_status: 200, tls: { ca_file: files.caFile } });
  expect(live.status, JSON.stringify(live.error)).toBe('pass');
  const smoke = await runCheck('node_exporter.metrics', { url, tls: { ca_file: files.caFile } });
  expect(smoke.status, JSON.stringify(smoke.error)).toBe('pass');
  expect(smoke.steps?.map((s) => s.status)).toEqual(['pass', 'pass', 'pass']);
  for (const outcome of [live, smoke])
    expect(outcome.evidence.tls).toEqual([
      expect.objectContaining({
        target: `127.0.0.1:${port}`,
        protocol: expect.stringMatching(/^TLSv1\.[23]$/),
        certificate: expect.objectContaining({
          subject: 'CN=node-exporter.127.0.0.1',
          issuer: 'CN=Navin Test CA',
          serial: files.serial,
          days_left: expect.any(Number),
        }),
      }),
    ]);
  expect(await runCheck('tls.handshake', { host: '127.0.0.1', port, ca_file: files.caFile })).toMatchObject({
    status: 'pass',
    evidence: { verdict: 'ok' },
  });
});

test('another CA fails as untrusted; a name the certificate does not carry fails as name_mismatch', async () => {
  const wrong = { ca_file: files.otherCaFile };
  expect(await runCheck('http', { port, path: '/metrics', scheme: 'https', tls: wrong })).toMatchObject({
    status: 'fail',
    error: { code: 'tls_untrusted' },
  });
  expect(await runCheck('node_exporter.metrics', { url, tls: wrong })).toMatchObject({ status: 'fail', error: { code: 'tls_untrusted' } });
  const otherName = { ca_file: files.caFile, server_name: 'exporter.elsewhere.test' };
  expect(await runCheck('node_exporter.metrics', { url, tls: otherName })).toMatchObject({
    status: 'fail',
    error: { code: 'tls_name_mismatch', message: expect.stringContaining('exporter.elsewhere.test') },
  });
  // The same name given as the server name to trust: localhost is in the certificate.
  const named = await runCheck('node_exporter.metrics', { url, tls: { ca_file: files.caFile, server_name: 'localhost' } });
  expect(named.status, JSON.stringify(named.error)).toBe('pass');
});

test('a plaintext exporter: the TLS checks fail it as not_tls, naming the endpoint', async () => {
  const plain = await startNodeExporter();
  try {
    const outcome = await runCheck('tls.handshake', { host: '127.0.0.1', port: plain.port, ca_file: files.caFile });
    expect(outcome).toMatchObject({
      status: 'fail',
      error: { code: 'not_tls', message: expect.stringContaining(`127.0.0.1:${plain.port}`) },
      evidence: { verdict: 'not_tls' },
    });
    const scrape = await runCheck('node_exporter.metrics', {
      url: `https://127.0.0.1:${plain.port}/metrics`,
      tls: { ca_file: files.caFile },
    });
    expect(scrape).toMatchObject({ status: 'fail', error: { code: 'not_tls' } });
  } finally {
    await plain.stop();
  }
});
