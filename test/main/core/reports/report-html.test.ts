// The HTML form of a signed report: every value escaped, nothing external and no script, the same data in
// English and French, and a page that sends the reader to verify-report instead of vouching for itself.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { renderReportHtml, VERIFY_COMMAND } from '../../../../main/core/reports/report-html';
import type { SignedReport } from '../../../../main/contract/report-types';
import type { Credentials } from '../../../../main/core/http/router';
import { testManager, type TestManager } from '../../../support/manager';

const EVIL = '<script>alert("x")</script>';
const IMG = '<img src=x onerror=alert(1)>';

function hostileReport(): SignedReport {
  return {
    payload: {
      type: 'report',
      v: 1,
      key_id: '0123456789abcdef',
      report_id: `r-${IMG}`,
      cluster_id: 'c1',
      cluster_name: EVIL,
      tenant: `t"'&`,
      created_at: '2026-12-02T10:00:00.000Z',
      created_by: `<b>mallory</b>`,
      verdict: 'FAIL',
      manager_version: '0.1.0',
      key_fingerprint: '0123456789abcdef'.repeat(4),
      lines: [
        {
          id: `component.${IMG}`,
          title: { en: `Title ${IMG}`, fr: `Titre ${EVIL}` },
          status: 'FAIL',
          ran_at: '2026-12-02T10:00:00.000Z',
          evidence: {
            method: `GET </dd>${EVIL}`,
            at: '2026-12-02T10:00:00.000Z',
            reason: { en: `because ${IMG}`, fr: `parce que ${EVIL}` },
            [`"><i>key`]: { nested: [`</pre>${EVIL}`, 1, true, null] },
            pem: `-----BEGIN-----\n${EVIL}\n-----END-----`,
          },
        },
      ],
    },
    signature: `sig<${'A'.repeat(10)}>`,
  };
}

describe('report HTML', () => {
  let t: TestManager;
  let viewer: Credentials;
  let reportId: string;
  let en: string;
  let fr: string;

  beforeAll(async () => {
    t = testManager();
    viewer = await t.login('vera', 'viewer');
    const c = t.manager.clusters.create({ name: 'edge' }, 'test');
    t.manager.commands.issue(c.id, 'managedcomponent.apply', { name: 'opa', spec: { component: 'opa', version: '1.0.0' } }, 'test');
    reportId = (await t.manager.reports.run(c.id, 'olga')).payload.report_id;
    const get = async (lang: string) => {
      const res = await t.call('GET', `/api/v1/reports/${reportId}/html?lang=${lang}`, undefined, viewer);
      expect(res.status).toBe(200);
      expect(res.contentType).toBe('text/html; charset=utf-8');
      return res.body as string;
    };
    [en, fr] = [await get('en'), await get('fr')];
  });
  afterAll(() => t?.close());

  test('every value from the report is escaped: no injected element or attribute survives', () => {
    for (const lang of ['en', 'fr'] as const) {
      const html = renderReportHtml(hostileReport(), lang);
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/<img/i);
      expect(html).not.toContain('<b>mallory');
      expect(html).not.toContain('<i>key');
      expect(html).not.toMatch(/<\/pre><script/);
      expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
      expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(html).toContain('t&quot;&#39;&amp;');
      expect(html).toContain('&quot;&gt;&lt;i&gt;key');
    }
    expect(renderReportHtml(hostileReport(), 'fr')).toContain('parce que &lt;script&gt;');
  });

  test('the page has no script and no external reference (no src or href, no url() or @import), and a CSP forbidding them', () => {
    for (const html of [en, fr, renderReportHtml(hostileReport(), 'en')]) {
      expect(html).not.toMatch(/<script/i);
      // No such attribute on any real tag; quoted values are emptied first, since escaped text may read "src=".
      expect(html.replace(/"[^"]*"/g, '""')).not.toMatch(/<[^>]*\s(src|href|action|formaction|srcset|background|poster)\s*=/i);
      expect(html).not.toMatch(/url\s*\(|@import|https?:\/\/(?!127\.0\.0\.1)/i);
      expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'`);
      expect(html).toMatch(/@media print/);
    }
  });

  test('English and French render the same report: the same lines, verdict, key id and fingerprint', async () => {
    const doc = (await t.call('GET', `/api/v1/reports/${reportId}`, undefined, viewer)).body as SignedReport;
    expect(en).toContain('<html lang="en">');
    expect(fr).toContain('<html lang="fr">');
    expect(en).toContain('Signed acceptance report');
    expect(fr).toContain('Rapport de recette signé');
    for (const html of [en, fr]) {
      for (const l of doc.payload.lines) expect(html).toContain(`data-line-id="${l.id}"`);
      expect(html).toContain(`data-verdict="${doc.payload.verdict}"`);
      expect(html).toContain(doc.payload.key_id);
      expect(html).toContain(doc.payload.key_fingerprint);
      expect(html).toContain(doc.payload.cluster_name);
    }
    expect(en).toContain(doc.payload.lines[0]!.title.en.replace(/'/g, '&#39;'));
    expect(fr).toContain(doc.payload.lines[0]!.title.fr.replace(/'/g, '&#39;'));
  });

  test('the page does not vouch for itself: it says to verify the JSON with verify-report and manager.pem', () => {
    expect(en).toContain('This page is not proof by itself.');
    expect(fr).toContain('Cette page ne constitue pas une preuve à elle seule.');
    for (const html of [en, fr]) expect(html).toContain(VERIFY_COMMAND);
    expect(VERIFY_COMMAND).toBe('navin-manager verify-report --file report.json --public-key manager.pem');
  });

  test('an unknown language is refused with 400 and an unknown report with 404', async () => {
    expect((await t.call('GET', `/api/v1/reports/${reportId}/html?lang=de`, undefined, viewer)).status).toBe(400);
    expect((await t.call('GET', '/api/v1/reports/nope/html?lang=en', undefined, viewer)).status).toBe(404);
    expect((await t.call('GET', '/api/v1/reports/nope', undefined, viewer)).status).toBe(404);
  });
});
