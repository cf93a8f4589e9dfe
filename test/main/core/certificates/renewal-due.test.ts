// The certificates due as renewals: one per service of a cluster naming its hosts due, the one that expires first
// first; certificates of no host, or no longer in use, are not renewed.
import { describe, expect, it } from 'vitest';
import type { IssuedCertificateRecord } from '../../../../main/core/certificates/certificates-tables';
import { dueRenewals } from '../../../../main/core/certificates/renewal-due';

let n = 0;
const cert = (over: Partial<IssuedCertificateRecord>): IssuedCertificateRecord => ({
  serial: `s${++n}`,
  cluster_id: 'c1',
  host_id: 'h1',
  kind: 'service',
  service: 'etcd',
  ca_serial: 'ca',
  subject: 'CN=x',
  dns_names: [],
  ip_addresses: [],
  not_before: '2026-01-01T00:00:00.000Z',
  not_after: '2026-04-01T00:00:00.000Z',
  renew_after: '2026-03-02T00:00:00.000Z',
  fingerprint_sha256: 'f',
  issued_at: '2026-01-01T00:00:00.000Z',
  state: 'issued',
  superseded_by: null,
  revoked_at: null,
  ...over,
});

describe('the renewals due', () => {
  it('gathers the certificates of a service of a cluster into one renewal naming each host once', () => {
    const a = cert({ host_id: 'h1' });
    const b = cert({ host_id: 'h2', renew_after: '2026-03-01T00:00:00.000Z', not_after: '2026-03-30T00:00:00.000Z' });
    const again = cert({ host_id: 'h1' });
    expect(dueRenewals([a, b, again])).toEqual([
      {
        cluster_id: 'c1',
        service: 'etcd',
        host_ids: ['h1', 'h2'],
        serials: [a.serial, b.serial, again.serial],
        renew_after: '2026-03-01T00:00:00.000Z',
        not_after: '2026-03-30T00:00:00.000Z',
      },
    ]);
  });

  it('keeps services and clusters apart, the one that expires first first', () => {
    const late = cert({ service: 'nats', not_after: '2026-05-01T00:00:00.000Z' });
    const early = cert({ cluster_id: 'c2', not_after: '2026-03-15T00:00:00.000Z' });
    const mid = cert({});
    expect(dueRenewals([late, mid, early]).map((r) => [r.cluster_id, r.service])).toEqual([
      ['c2', 'etcd'],
      ['c1', 'etcd'],
      ['c1', 'nats'],
    ]);
  });

  it('leaves out a certificate of no host, of no service, or no longer in use', () => {
    expect(
      dueRenewals([cert({ host_id: null }), cert({ service: null }), cert({ state: 'superseded' }), cert({ state: 'revoked' })]),
    ).toEqual([]);
  });
});
