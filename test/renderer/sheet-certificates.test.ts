// The Security tab's certificates as rendered: a host whose check handshook shows the certificate it was served
// (subject, SANs, issuer, serial, not-after, days left, the under-14-days mark) and the TLS version; a host no check
// reached says nothing was observed; a service without TLS says it has no certificate, and shows none.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SheetEndpoint } from '../../preload/api';
import { SheetCertificates } from '../../renderer/src/features/service-sheet/SheetCertificates';

const endpoint = (patch: Partial<SheetEndpoint> = {}): SheetEndpoint => ({
  name: 'client',
  port: 2379,
  description: 'client API',
  tls_capable: true,
  tls_enabled: true,
  listening: [],
  tls_versions: ['TLSv1.3'],
  handshakes: [
    {
      host_name: 'etcd-0',
      observed: {
        at: '2026-12-06T05:00:00.000Z',
        check: { kind: 'etcd.health', role: 'liveness', host_name: 'etcd-0' },
        target: '198.18.4.10:2379',
        protocol: 'TLSv1.3',
        cipher: 'TLS_AES_256_GCM_SHA384',
        certificate: {
          subject: 'CN=etcd-0',
          sans: ['etcd-0', '198.18.4.10'],
          issuer: 'CN=navin service CA, serialNumber=ab12',
          serial: '5f3e9a',
          not_before: '2026-09-07T05:00:00.000Z',
          not_after: '2026-12-11T05:00:00.000Z',
          days_left: 5,
          expiring: true,
          fingerprint256: 'AA:BB',
        },
      },
    },
    { host_name: 'etcd-1', observed: null },
  ],
  ...patch,
});

const render = (endpoints: SheetEndpoint[]): string => renderToStaticMarkup(createElement(SheetCertificates, { endpoints }));

describe('the certificates of the Security tab', () => {
  it('shows what each host served, as observed, and says so where nothing was', () => {
    const out = render([endpoint()]);
    expect(out).toContain('client (port 2379)');
    expect(out).toContain('TLS versions seen: TLSv1.3');
    const seen = /data-host="etcd-0" data-observed="true" data-serial="5f3e9a">([\s\S]*?)<\/li>/.exec(out)?.[1] ?? '';
    for (const text of [
      'TLSv1.3',
      'CN=etcd-0',
      'etcd-0, 198.18.4.10',
      'CN=navin service CA, serialNumber=ab12',
      '5f3e9a',
      '5 days left',
      'Under 14 days',
    ])
      expect(seen).toContain(text);
    expect(seen).toContain('seen by etcd.health (liveness) from etcd-0');
    expect(out).toMatch(/data-host="etcd-1" data-observed="false">[\s\S]*?no check has handshaken with this port yet: nothing observed/);
  });

  it('a certificate with time to spare carries no mark; SANs no ledger recorded are said to be unknown', () => {
    const e = endpoint();
    const c = e.handshakes[0]!.observed!.certificate!;
    e.handshakes[0]!.observed!.certificate = { ...c, days_left: 80, expiring: false, sans: null };
    const out = render([e]);
    expect(out).toContain('80 days left');
    expect(out).not.toContain('Under 14 days');
    expect(out).toContain('not recorded by this manager');
  });

  it('a service without TLS has no certificate to show', () => {
    const out = render([endpoint({ tls_enabled: false, handshakes: [], tls_versions: [] })]);
    expect(out).toContain('No certificate to expire');
    expect(out).not.toContain('data-testid="sheet-handshake"');
  });
});
