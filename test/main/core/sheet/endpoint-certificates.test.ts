// The Security tab's certificates and the service lines of the report, from a real handshake: the manager's service
// CA issues a 10-day certificate for a host's CSR, a TLS server on loopback serves it, and the node agent's own
// tls.handshake check handshakes with it. The sheet shows that certificate (subject, SANs from the ledger, issuer,
// serial, not-after, days left) and the TLS version for the host whose check saw it, and "nothing observed" for the
// host no check reached; the check's warning survives the contract, and its report line is WARN with the certificate.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import forge from 'node-forge';
import { runCheck } from '../../../../agent/checks';
import { checkOutcomeSchema, type ObservedChecks } from '../../../../main/contract/sheet-types';
import type { ServiceView } from '../../../../main/contract/services';
import { sansBySerial } from '../../../../main/core/certificates/fleet';
import { endpointHandshakes } from '../../../../main/core/sheet/endpoint-certificates';
import { serviceLines } from '../../../../main/core/reports/service-lines';
import type { CheckOutcome } from '../../../../main/wire/service-checks';
import { testManager, type TestManager } from '../../../support/manager';
import { tempDir } from '../../../support/temp-dir';

function hostCsr(hostName: string): { csrPem: string; keyPem: string } {
  const { privateKey: keyPem } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const key = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  const csr = forge.pki.createCertificationRequest();
  csr.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  csr.setSubject([{ name: 'commonName', value: hostName }]);
  csr.sign(key, forge.md.sha256.create());
  return { csrPem: forge.pki.certificationRequestToPem(csr), keyPem };
}

describe('the certificate a port served, as the Security tab and the report show it', () => {
  let t: TestManager;
  const dir = tempDir('navin-sheet-tls-');
  let server: tls.Server;
  let port: number;
  let certPem: string;
  let outcome: CheckOutcome;
  const hosts = [
    { id: 'h-0', name: 'm-0', address: '198.18.4.10' },
    { id: 'h-1', name: 'm-1', address: '198.18.4.11' },
  ];

  beforeAll(async () => {
    t = testManager();
    const cluster = t.manager.clusters.create({ name: 'tls-hosts', kind: 'hosts' }, 'test');
    const { csrPem, keyPem } = hostCsr('m-0');
    const issued = t.manager.certificates.issue({
      clusterId: cluster.id,
      hostId: null,
      service: 'nats',
      hostName: 'm-0',
      addresses: ['198.18.4.10', '127.0.0.1'],
      csrPem,
      days: 10,
      actor: 'test',
    });
    certPem = issued.cert_pem;
    writeFileSync(join(dir.path, 'ca.pem'), issued.ca_pem);
    server = tls.createServer({ cert: certPem, key: keyPem, minVersion: 'TLSv1.2' }, (s) => s.end());
    server.on('tlsClientError', () => undefined);
    port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
    outcome = await runCheck('tls.handshake', { host: '127.0.0.1', port, ca_file: join(dir.path, 'ca.pem') }, {});
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    t?.close();
    dir.remove();
  });

  test('the agent check passes with a tls_expiring warning, and the contract keeps the warning', () => {
    expect(outcome).toMatchObject({ status: 'pass', warning: { code: 'tls_expiring' } });
    expect(checkOutcomeSchema.parse(outcome).warning).toEqual(outcome.warning);
  });

  test('the host whose check handshook shows the served certificate with the ledger SANs; the other says nothing was observed', () => {
    const at = new Date().toISOString();
    const checks: ObservedChecks = {
      liveness: { 'h-0': { at, outcome: checkOutcomeSchema.parse(outcome) } },
      readiness: null,
      functional: null,
    };
    const served = new X509Certificate(certPem);
    const r = endpointHandshakes(port, hosts, checks, sansBySerial(t.manager.certificates.list()), new Date());
    expect(r.tls_versions).toEqual(['TLSv1.3']);
    expect(r.handshakes[1]).toEqual({ host_name: 'm-1', observed: null });
    const seen = r.handshakes[0]!;
    expect(seen).toMatchObject({
      host_name: 'm-0',
      observed: {
        at,
        check: { kind: 'tls.handshake', role: 'liveness', host_name: 'm-0' },
        target: `127.0.0.1:${port}`,
        protocol: 'TLSv1.3',
      },
    });
    const cert = seen.observed!.certificate!;
    expect(cert.subject).toBe(served.subject.replace(/\n/g, ', '));
    expect(cert.issuer).toBe(served.issuer.replace(/\n/g, ', '));
    expect(cert.serial).toBe(t.manager.certificates.list()[0]!.serial);
    expect(new Set(cert.sans)).toEqual(new Set(['m-0', '198.18.4.10', '127.0.0.1']));
    expect(cert.not_after).toBe(new Date(served.validTo).toISOString());
    expect(cert.days_left).toBeGreaterThanOrEqual(9);
    expect(cert.days_left).toBeLessThan(14);
    expect(cert.expiring).toBe(true);
    // Another port of the same host was reached by no check.
    expect(endpointHandshakes(port + 1, hosts, checks, new Map(), new Date()).handshakes[0]!.observed).toBeNull();
  });

  test('the readiness line of the report is WARN with the certificate as evidence', () => {
    const at = new Date().toISOString();
    const view: ServiceView = {
      service: 'nats',
      title: 'NATS',
      version: '2.10.22',
      state: 'running',
      hosts,
      config: {},
      config_version: 1,
      checks: { liveness: {}, readiness: { at, host_id: 'h-0', outcome: checkOutcomeSchema.parse(outcome) }, functional: null },
      checks_at: at,
      operation: null,
      created_at: at,
      updated_at: at,
    };
    const since = new Date(Date.parse(at) - 1000).toISOString();
    const line = serviceLines([view], () => [], null, null, since, at).find((l) => l.id === 'service.nats.readiness')!;
    expect(line.status).toBe('WARN');
    expect((line.evidence.reason as { en: string }).en).toMatch(
      /^passes, but needs attention soon \(tls_expiring\): the certificate expires in/,
    );
    const served = new X509Certificate(certPem);
    expect(line.evidence.certificates).toEqual([
      {
        target: `127.0.0.1:${port}`,
        subject: served.subject.replace(/\n/g, ', '),
        issuer: served.issuer.replace(/\n/g, ', '),
        serial: served.serialNumber,
        not_after: new Date(served.validTo).toISOString(),
        days_left: expect.any(Number),
      },
    ]);
  });
});
