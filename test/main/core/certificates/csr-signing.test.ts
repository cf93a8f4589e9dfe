// A service certificate from a CSR made by openssl: openssl accepts it under the cluster's service CA, it carries
// the manager's names (not the CSR's) and both EKUs, and bad requests are refused with their codes.
import { X509Certificate, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ServiceCa } from '../../../../main/core/certificates/service-ca';
import { MIN_CSR_RSA_BITS, SERVICE_CERTIFICATE_DAYS, signServiceCsr, verifiedCsrKey } from '../../../../main/core/certificates/csr-signing';
import { CoreError } from '../../../../main/core/errors';
import { describeWithBinaries } from '../../../support/config-parsers';
import { tempDir } from '../../../support/temp-dir';
import { opensslCsr, opensslVerify, testProtector } from './certificates-fixture';

const NOW = new Date('2026-12-02T10:00:00Z');
const DAY = 86_400_000;
const names = { service: 'etcd', hostName: 'h-0', addresses: ['198.18.7.3', 'fd00::7', 'h-0.edge.example'] };

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (error instanceof CoreError) return error.code;
    throw error;
  }
  throw new Error('no error was thrown');
};

/** The CSR with one byte of its signed part changed: its signature no longer matches. */
function tampered(csrPem: string): string {
  const der = Buffer.from(csrPem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64');
  const at = der.indexOf('evil.example');
  der[at] = 'f'.charCodeAt(0);
  const body =
    der
      .toString('base64')
      .match(/.{1,64}/g)
      ?.join('\n') ?? '';
  return `-----BEGIN CERTIFICATE REQUEST-----\n${body}\n-----END CERTIFICATE REQUEST-----\n`;
}

describeWithBinaries('a service certificate signed from a host CSR', ['openssl'], () => {
  const dir = tempDir('navin-csr-');
  let ca: ServiceCa;

  beforeAll(() => {
    ca = ServiceCa.create('cluster-1', testProtector(), NOW).ca;
  });
  afterAll(() => dir.remove());

  it('is accepted by openssl under the service CA, for server and client use, with the key of the CSR', () => {
    const { csrPem, keyFile } = opensslCsr(dir.path);
    const signed = signServiceCsr(ca, csrPem, names, { now: NOW });
    const at = new Date(NOW.getTime() + DAY);
    expect(opensslVerify(dir.path, ca.certPem, signed.certPem, at)).toMatch(/: OK$/);
    expect(opensslVerify(dir.path, ca.certPem, signed.certPem, at, 'sslserver')).toMatch(/: OK$/);
    expect(opensslVerify(dir.path, ca.certPem, signed.certPem, at, 'sslclient')).toMatch(/: OK$/);
    // Under another cluster's CA it is not trusted.
    const other = ServiceCa.create('cluster-2', testProtector(), NOW).ca;
    expect(opensslVerify(dir.path, other.certPem, signed.certPem, at)).not.toMatch(/: OK$/);

    const x509 = new X509Certificate(signed.certPem);
    expect(x509.verify(new X509Certificate(ca.certPem).publicKey)).toBe(true);
    expect(x509.publicKey.export({ type: 'spki', format: 'pem' })).toBe(
      createPublicKey(readFileSync(keyFile, 'utf8')).export({ type: 'spki', format: 'pem' }),
    );
    expect(x509.ca).toBe(false);
    expect(x509.keyUsage?.sort()).toEqual(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']);
    expect(x509.subject).toContain('CN=etcd.h-0');
    expect(x509.subjectAltName?.split(', ').sort()).toEqual(
      ['DNS:h-0', 'DNS:h-0.edge.example', 'IP Address:198.18.7.3', 'IP Address:FD00:0:0:0:0:0:0:7'].sort(),
    );
    expect(x509.issuer).toBe(new X509Certificate(ca.certPem).subject);
    expect(signed.fingerprintSha256).toBe(x509.fingerprint256.replaceAll(':', '').toLowerCase());
    expect(signed.serial).toBe(x509.serialNumber.toLowerCase().replace(/^0+/, ''));
    expect(x509.serialNumber.length).toBeLessThanOrEqual(32);
  });

  it('lives 90 days by default, from a little before it was signed, or the days asked', () => {
    const x509 = new X509Certificate(signServiceCsr(ca, opensslCsr(dir.path).csrPem, names, { now: NOW }).certPem);
    expect(Date.parse(x509.validTo)).toBe(Math.floor((NOW.getTime() + SERVICE_CERTIFICATE_DAYS * DAY) / 1000) * 1000);
    expect(Date.parse(x509.validFrom)).toBeLessThan(NOW.getTime());
    expect(Date.parse(x509.validFrom)).toBeGreaterThanOrEqual(NOW.getTime() - 10 * 60_000);
    const short = signServiceCsr(ca, opensslCsr(dir.path).csrPem, names, { now: NOW, days: 2 });
    expect(short.notAfter.getTime()).toBe(NOW.getTime() + 2 * DAY);
  });

  it('carries the names the manager gives, never those the CSR asks for', () => {
    const { csrPem } = opensslCsr(dir.path, { subject: '/CN=evil.example', sans: 'DNS:evil.example,DNS:*.corp.example,IP:10.9.9.9' });
    const signed = signServiceCsr(ca, csrPem, { service: 'nats', hostName: 'h-1', addresses: ['198.18.7.4'] }, { now: NOW });
    const x509 = new X509Certificate(signed.certPem);
    expect(x509.subjectAltName).toBe('DNS:h-1, IP Address:198.18.7.4');
    expect(x509.subject).not.toContain('evil');
    expect(signed).toMatchObject({ subject: 'nats.h-1', dnsNames: ['h-1'], ipAddresses: ['198.18.7.4'] });
  });

  it('refuses a CSR whose signature does not match, a weak key, a key not RSA and what is no CSR', () => {
    const good = opensslCsr(dir.path).csrPem;
    expect(() => verifiedCsrKey(good)).not.toThrow();
    expect(codeOf(() => signServiceCsr(ca, tampered(good), names, { now: NOW }))).toBe('csr_signature_invalid');
    const weak = opensslCsr(dir.path, { key: ['-newkey', 'rsa:1024'] }).csrPem;
    expect(MIN_CSR_RSA_BITS).toBe(2048);
    expect(codeOf(() => signServiceCsr(ca, weak, names, { now: NOW }))).toBe('csr_key_too_weak');
    const ec = opensslCsr(dir.path, { key: ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'], subject: '/CN=ec' });
    expect(ec.csrPem).toContain('CERTIFICATE REQUEST');
    expect(codeOf(() => signServiceCsr(ca, ec.csrPem, names, { now: NOW }))).toBe('csr_key_unsupported');
    for (const garbage of [
      'garbage',
      '',
      '-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n',
      ca.certPem,
      good.replace('CERTIFICATE REQUEST', 'CERTIFICATE').replace('CERTIFICATE REQUEST', 'CERTIFICATE'),
    ])
      expect(
        codeOf(() => signServiceCsr(ca, garbage, names, { now: NOW })),
        garbage.slice(0, 40),
      ).toBe('csr_invalid');
  });

  it('names an IPv4-mapped IPv6 address by its 16 bytes', () => {
    const signed = signServiceCsr(ca, opensslCsr(dir.path).csrPem, { ...names, addresses: ['::ffff:198.18.7.3'] }, { now: NOW });
    expect(new X509Certificate(signed.certPem).subjectAltName).toBe('DNS:h-0, IP Address:0:0:0:0:0:FFFF:C612:703');
    expect(signed.ipAddresses).toEqual(['::ffff:c612:703']);
  });

  it('refuses names that are not a host label, an IP address or a DNS name', () => {
    const csr = opensslCsr(dir.path).csrPem;
    expect(codeOf(() => signServiceCsr(ca, csr, { ...names, hostName: 'h_0' }, { now: NOW }))).toBe('invalid_field');
    expect(codeOf(() => signServiceCsr(ca, csr, { ...names, service: 'Etcd Server' }, { now: NOW }))).toBe('invalid_field');
    expect(codeOf(() => signServiceCsr(ca, csr, { ...names, addresses: ['not a name'] }, { now: NOW }))).toBe('invalid_field');
    expect(codeOf(() => signServiceCsr(ca, csr, { ...names, addresses: ['fe80::1%eth0'] }, { now: NOW }))).toBe('invalid_field');
    expect(codeOf(() => signServiceCsr(ca, csr, names, { now: NOW, days: 0 }))).toBe('invalid_field');
  });
});
