// A certificate under 14 days reaches the signed acceptance report as WARN (issue 34: "a report shows a WARN for a
// certificate under 14 days"): real TLS servers on loopback serve a 5-day, a year-long and an expired certificate
// of a test CA the manager trusts; the report run through the API says WARN, PASS and FAIL for them, each with the
// certificate's subject, issuer, serial and not-after, and the report so signed verifies offline.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { X509Certificate } from 'node:crypto';
import tls from 'node:tls';
import type { ReportLine } from '../../../../main/contract/check-types';
import type { SignedReport } from '../../../../main/contract/report-types';
import type { Credentials } from '../../../../main/core/http/router';
import { setEndpointTrust } from '../../../../main/core/profiles/endpoint-trust';
import { verifyReport } from '../../../../main/wire/report-verify';
import { nodeEd25519 } from '../../../../main/wire/ed25519-node';
import { testManager, type TestManager } from '../../../support/manager';
import { startTlsEndpoint, type TestEndpoint } from '../../../support/tls-endpoints';

/** The certificate a server serves, read by a plain handshake: what the report must name. */
function served(port: number): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const s = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      const raw = s.getPeerCertificate().raw;
      s.destroy();
      resolve(new X509Certificate(raw));
    });
    s.once('error', reject);
  });
}

describe('a certificate under 14 days in the acceptance report', () => {
  let t: TestManager;
  const ends: Partial<Record<'valid' | 'expiring' | 'expired', TestEndpoint>> = {};
  let doc: SignedReport;
  let pem: string;
  const line = (id: string): ReportLine => {
    const l = doc.payload.lines.find((x) => x.id === id);
    if (!l) throw new Error(`no line ${id} in ${doc.payload.lines.map((x) => x.id).join(', ')}`);
    return l;
  };

  beforeAll(async () => {
    t = testManager();
    const [valid, expiring, expired] = await Promise.all(
      (['valid', 'expiring', 'expired'] as const).map((kind) => startTlsEndpoint({ kind, serverName: '127.0.0.1' })),
    );
    Object.assign(ends, { valid, expiring, expired });
    setEndpointTrust(t.manager.store, t.manager.tables, valid!.caPem, 'test');
    const op: Credentials = await t.login('olga', 'operator');
    const clusterId = t.manager.clusters.create({ name: 'edge' }, 'test').id;
    const endpoints = (['valid', 'expiring', 'expired'] as const).map((k) => ({ name: k, url: `tls://127.0.0.1:${ends[k]!.port}` }));
    t.manager.commands.issue(
      clusterId,
      'managedcomponent.apply',
      { name: 'nats', spec: { component: 'nats', version: '2.10.0', endpoints } },
      'test',
    );
    const run = await t.call('POST', `/api/v1/clusters/${clusterId}/acceptance`, undefined, op);
    expect(run.status).toBe(201);
    const got = await t.call('GET', `/api/v1/reports/${(run.body as SignedReport).payload.report_id}`, undefined, op);
    expect(got.status).toBe(200);
    doc = got.body as SignedReport;
    pem = (await t.call('GET', '/api/v1/keys/manager.pem', undefined, op)).body as string;
  });
  afterAll(async () => {
    await Promise.all(Object.values(ends).map((e) => e.stop()));
    t?.close();
  });

  test('the 5-day certificate is WARN with its subject, issuer, serial and not-after; a valid one PASS, an expired one FAIL', async () => {
    const warn = line('preflight.tls.endpoint.nats.expiring');
    expect(warn.status).toBe('WARN');
    expect((warn.evidence.reason as { en: string }).en).toMatch(/^the certificate expires in [45] days$/);
    const cert = await served(ends.expiring!.port);
    const [seen] = warn.evidence.certificates as {
      subject: string;
      issuer: string;
      serial: string;
      not_after: string;
      days_left: number;
    }[];
    expect(seen).toMatchObject({
      subject: cert.subject.replace(/\n/g, ', '),
      issuer: 'CN=Navin Test CA',
      serial: cert.serialNumber,
      not_after: new Date(cert.validTo).toISOString(),
    });
    expect(seen!.days_left).toBeLessThan(14);
    expect(line('preflight.tls.endpoint.nats.valid').status).toBe('PASS');
    expect(line('preflight.tls.endpoint.nats.expired').status).toBe('FAIL');
  });

  test('the report as downloaded verifies offline, and turning its WARN into PASS breaks the signature', () => {
    const text = JSON.stringify(doc);
    expect(verifyReport(text, pem, nodeEd25519)).toMatchObject({ ok: true });
    const tampered = structuredClone(doc);
    tampered.payload.lines.find((l) => l.status === 'WARN')!.status = 'PASS';
    expect(verifyReport(JSON.stringify(tampered), pem, nodeEd25519)).toMatchObject({ ok: false, code: 'signature_invalid' });
  });

  test('the readable page shows the line as WARN in both languages and counts it', () => {
    for (const lang of ['en', 'fr'] as const) {
      const html = t.manager.reports.html(doc.payload.report_id, lang);
      expect(html).toContain('data-line-id="preflight.tls.endpoint.nats.expiring" data-status="WARN"');
      expect(html).toMatch(/tally-item status-WARN"><span class="status status-WARN">WARN<\/span><span class="tally-n">[1-9]/);
    }
  });
});
