// The certificates domain over a real store: one service CA per cluster, sealed at rest and the same after a
// reopen; the ledger of issued certificates, sorted by expiry, due for renewal at two thirds of life; no key in
// any view.
import { X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Certificates, RENEW_AT_FRACTION } from '../../../../main/core/certificates/certificates';
import { CoreError } from '../../../../main/core/errors';
import type { Store } from '../../../../main/core/store/store';
import type { AesKeyProtector } from '../../../../main/core/keys/protector';
import { ManualClock } from '../../../support/clock';
import { describeWithBinaries } from '../../../support/config-parsers';
import { tempDir } from '../../../support/temp-dir';
import { addCluster, addHost, openCertificatesStore, opensslCsr, opensslVerify, testProtector } from './certificates-fixture';

const DAY = 86_400_000;

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (error instanceof CoreError) return error.code;
    throw error;
  }
  throw new Error('no error was thrown');
};

describeWithBinaries('the certificates of a manager', ['openssl'], () => {
  let dir: ReturnType<typeof tempDir>;
  let clock: ManualClock;
  let protector: AesKeyProtector;
  let store: Store;
  let certificates: Certificates;
  let cluster: string;
  let host: string;

  const open = (): void => {
    store = openCertificatesStore(join(dir.path, 'navin.db'), clock);
    certificates = new Certificates({ store, protector, clock });
  };
  const issue = (days?: number, service = 'etcd') =>
    certificates.issue({
      clusterId: cluster,
      hostId: host,
      service,
      hostName: 'h-0',
      addresses: ['198.18.7.3'],
      csrPem: opensslCsr(dir.path).csrPem,
      days,
      actor: 'manager',
    });

  beforeEach(() => {
    dir = tempDir('navin-certificates-');
    clock = new ManualClock();
    protector = testProtector();
    open();
    cluster = addCluster(store, 'edge');
    host = addHost(store, cluster, 'h-0', '198.18.7.3');
  });
  afterEach(() => {
    store.close();
    dir.remove();
  });

  it('makes one service CA per cluster on first need, seals its key, and finds the same one after a reopen', () => {
    const ca = certificates.serviceCa(cluster);
    expect(certificates.serviceCa(cluster)).toEqual(ca);
    expect(ca).toMatchObject({ cluster_id: cluster, state: 'active' });
    expect(Object.keys(ca)).not.toContain('sealed_key');
    const x509 = new X509Certificate(ca.cert_pem);
    expect(x509.ca).toBe(true);
    expect(x509.serialNumber.toLowerCase().replace(/^0+/, '')).toBe(ca.serial);

    const row = store.db.prepare('SELECT sealed_key FROM service_cas WHERE cluster_id = ?').get(cluster) as { sealed_key: Buffer };
    expect(row.sealed_key.toString('latin1')).not.toContain('PRIVATE KEY');
    expect(row.sealed_key.subarray(0, 4).toString()).toBe('NVK1');
    expect(protector.open(row.sealed_key).toString()).toContain('PRIVATE KEY');
    expect(store.audit.list({ action: 'certificate.ca_create' })).toHaveLength(1);

    const other = addCluster(store, 'other');
    expect(certificates.serviceCa(other).serial).not.toBe(ca.serial);

    store.close();
    open();
    expect(certificates.serviceCa(cluster)).toEqual(ca);
    // The reopened CA signs: its certificate verifies under the CA certificate of before the reopen.
    expect(opensslVerify(dir.path, ca.cert_pem, issue().cert_pem, clock.now())).toMatch(/: OK$/);
    expect(certificates.tables.cas(cluster)).toHaveLength(1);
  });

  it('records each certificate it issues, under the cluster CA it sends back', () => {
    const issued = issue();
    expect(issued.ca_pem).toBe(certificates.serviceCa(cluster).cert_pem);
    expect(issued.certificate).toMatchObject({
      cluster_id: cluster,
      host_id: host,
      kind: 'service',
      service: 'etcd',
      ca_serial: certificates.serviceCa(cluster).serial,
      subject: 'etcd.h-0',
      dns_names: ['h-0'],
      ip_addresses: ['198.18.7.3'],
      state: 'issued',
      superseded_by: null,
      revoked_at: null,
      issued_at: clock.now().toISOString(),
    });
    expect(certificates.tables.certificate(issued.certificate.serial)).toEqual(issued.certificate);
    // A serial as a TLS stack reports it (upper case) finds the same row.
    expect(certificates.tables.certificate(issued.certificate.serial.toUpperCase())).toEqual(issued.certificate);
    expect(issued.certificate.fingerprint_sha256).toBe(
      new X509Certificate(issued.cert_pem).fingerprint256.replaceAll(':', '').toLowerCase(),
    );
    expect(store.audit.list({ action: 'certificate.issue' }).map((r) => r.target)).toEqual([issued.certificate.serial]);
  });

  it("lists by expiry, a service's certificates in use by cluster, and never shows a private key", () => {
    const long = issue(90);
    const short = issue(30, 'nats');
    const middle = issue(60, 'node-exporter');
    expect(certificates.list().map((c) => c.serial)).toEqual([short, middle, long].map((c) => c.certificate.serial));
    expect(certificates.inUse(cluster, 'etcd').map((c) => c.serial)).toEqual([long.certificate.serial]);
    expect(certificates.inUse(cluster, 'nats').map((c) => c.serial)).toEqual([short.certificate.serial]);
    certificates.revoke(short.certificate.serial, 'manager');
    expect(certificates.inUse(cluster, 'nats')).toEqual([]);
    expect(certificates.inUse(addCluster(store, 'empty'), 'etcd')).toEqual([]);
    const shown = JSON.stringify([certificates.list(), certificates.tables.cas(cluster), certificates.serviceCa(cluster), long]);
    expect(shown).not.toContain('PRIVATE KEY');
    expect(shown).not.toContain('sealed_key');
  });

  it('is due for renewal at two thirds of its life, until it is superseded or revoked', () => {
    expect(RENEW_AT_FRACTION).toBeCloseTo(2 / 3);
    const first = issue(90).certificate;
    const life = Date.parse(first.not_after) - Date.parse(first.not_before);
    const dueAt = Date.parse(first.not_before) + (life * 2) / 3;
    expect(Math.abs(Date.parse(first.renew_after) - dueAt)).toBeLessThan(1000);
    expect(certificates.dueForRenewal(new Date(dueAt - 60_000))).toEqual([]);
    expect(certificates.dueForRenewal(new Date(dueAt + 1000)).map((c) => c.serial)).toEqual([first.serial]);

    clock.advance(59 * DAY);
    expect(certificates.dueForRenewal()).toEqual([]);
    clock.advance(DAY);
    expect(certificates.dueForRenewal().map((c) => c.serial)).toEqual([first.serial]);

    const next = issue(90).certificate;
    certificates.supersede(first.serial, next.serial);
    expect(certificates.tables.certificate(first.serial)).toMatchObject({ state: 'superseded', superseded_by: next.serial });
    expect(certificates.dueForRenewal()).toEqual([]);
    expect(codeOf(() => certificates.supersede(first.serial, next.serial))).toBe('conflict');

    clock.advance(60 * DAY);
    expect(certificates.dueForRenewal().map((c) => c.serial)).toEqual([next.serial]);
    const revoked = certificates.revoke(next.serial, 'admin');
    expect(revoked).toMatchObject({ state: 'revoked', revoked_at: clock.now().toISOString() });
    expect(certificates.dueForRenewal()).toEqual([]);
    expect(codeOf(() => certificates.revoke(next.serial, 'admin'))).toBe('certificate_revoked');
    expect(codeOf(() => certificates.revoke('abcdef', 'admin'))).toBe('not_found');
    expect(store.audit.list({ action: 'certificate.revoke' }).map((r) => [r.actor, r.target])).toEqual([['admin', next.serial]]);
  });

  it('answers not_found for a cluster or host it does not know, and keeps no CA or row for them', () => {
    expect(codeOf(() => certificates.serviceCa('no-such-cluster'))).toBe('not_found');
    expect(store.db.prepare('SELECT count(*) AS n FROM service_cas').get()).toEqual({ n: 0 });
    // A refused request makes no CA: it is judged before the cluster's CA is looked for.
    expect(codeOf(() => certificates.issue({ ...request(), csrPem: 'garbage' }))).toBe('csr_invalid');
    expect(codeOf(() => certificates.issue({ ...request(), hostName: 'not a label' }))).toBe('invalid_field');
    expect(certificates.tables.cas(cluster)).toEqual([]);
    expect(codeOf(() => certificates.issue({ ...request(), hostId: 'no-such-host' }))).toBe('not_found');
    expect(certificates.list()).toEqual([]);
  });

  it('forgets the CA and certificates of a deleted cluster', () => {
    issue();
    store.db.prepare('DELETE FROM clusters WHERE id = ?').run(cluster);
    expect(certificates.list()).toEqual([]);
    expect(certificates.tables.cas(cluster)).toEqual([]);
  });

  const request = () => ({
    clusterId: cluster,
    hostId: host,
    service: 'etcd',
    hostName: 'h-0',
    addresses: ['198.18.7.3'],
    csrPem: opensslCsr(dir.path).csrPem,
    actor: 'manager',
  });
});
