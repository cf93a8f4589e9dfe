// The acceptance report as an auditor opens it: a real report from the headless manager (agent polled over
// mTLS, inventory posted, components whose images are looked up in a real registry as the mirror), its English and French
// HTML saved as files and opened in Chromium from file:// with no network: headings, verdict, every line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, request, test, type APIRequestContext } from '@playwright/test';
import { ALICE, REPO_ROOT, startManager, type RunningManager } from './support/manager';
import { gatewayCall, type ClientCert } from '../support/gateway-client';
import { deleteManifest, pushTestImage, startRegistry, type TestRegistry } from '../support/registry';

const SHOTS = join(REPO_ROOT, 'test-results', 'screenshots');

interface Line {
  id: string;
  status: string;
  title: { en: string; fr: string };
}
interface Report {
  payload: { report_id: string; verdict: string; key_id: string; key_fingerprint: string; lines: Line[] };
  signature: string;
}

let manager: RunningManager;
let registry: TestRegistry;
let OPA: string, NATS: string, NATS_EXPORTER: string;
let api: APIRequestContext;
let dir: string;
let report: Report;
const files: Record<'en' | 'fr', string> = { en: '', fr: '' };

test.use({ viewport: { width: 1100, height: 900 }, colorScheme: 'light' });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  [manager, registry] = await Promise.all([startManager({ users: [ALICE] }), startRegistry()]);
  // What the mirror holds: images pushed for real; the exporter's is deleted after its install was preflighted.
  [OPA, NATS, NATS_EXPORTER] = await Promise.all([
    pushTestImage(registry, 'navin/opa'),
    pushTestImage(registry, 'navin/nats'),
    pushTestImage(registry, 'navin/nats-exporter'),
  ]);
  dir = mkdtempSync(join(tmpdir(), 'navin-report-html-'));
  const origin = new URL(manager.url).origin;
  api = await request.newContext({ baseURL: origin, ignoreHTTPSErrors: true });
  const login = await api.post('/api/v1/session', { data: { name: ALICE.name, password: ALICE.password } });
  expect(login.status()).toBe(200);
  const csrf = ((await login.json()) as { csrf_token: string }).csrf_token;
  const send = async (method: 'post' | 'put', path: string, data: unknown, status: number) => {
    const res = await api[method](path, { data, headers: { 'X-CSRF-Token': csrf } });
    expect(res.status(), `${method} ${path}: ${await res.text()}`).toBe(status);
    return res.json();
  };

  const cluster = (await send('post', '/api/v1/clusters', { name: 'edge-paris-01', tenant: 'banking' }, 201)) as { id: string };
  const gatewayUrl = /agent gateway at (https:\/\/\S+)/.exec(manager.output())?.[1];
  expect(gatewayUrl, manager.output()).toBeTruthy();
  const identity = (await send('post', `/api/v1/clusters/${cluster.id}/kubernetes/agent`, { gateway_url: gatewayUrl }, 201)) as {
    files: Record<string, string>;
  };
  await send('put', '/api/v1/settings/mirror', { url: registry.url, ca_pem: registry.caPem }, 200);
  // The agent, played over real mTLS with the cluster's certificate: a long poll and an inventory report.
  const cert: ClientCert = { certPem: identity.files['tls.crt']!, keyPem: identity.files['tls.key']!, caPem: identity.files['ca.crt']! };
  // The gateway certificate names its IP; an empty server name sends no SNI and checks the IP SAN.
  const servername = '';
  expect((await gatewayCall(gatewayUrl!, 'GET', '/v1/cluster-agent/commands?wait=0', cert, undefined, servername)).status).toBe(200);
  const inventory = {
    kubernetes_version: 'v1.30.4',
    nodes: ['cp-1', 'worker-1', 'worker-2'].map((name) => ({
      name,
      ready: true,
      operating_system: 'linux',
      architecture: 'amd64',
      os_image: 'Debian GNU/Linux 12 (bookworm)',
      allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
    })),
  };
  expect(
    (
      await gatewayCall(
        gatewayUrl!,
        'POST',
        '/v1/cluster-agent/report',
        cert,
        { replica: 'agent-0', agent_version: '0.1.0', leader: true, inventory },
        servername,
      )
    ).status,
  ).toBe(200);
  // Installs are preflighted on that inventory (this cluster has no registered kubeconfig).
  await send(
    'post',
    `/api/v1/clusters/${cluster.id}/components`,
    {
      name: 'opa',
      spec: { component: 'opa', version: '0.68.0', replicas: 2, artifacts: [{ name: 'opa', image: `registry.internal/navin/opa@${OPA}` }] },
    },
    202,
  );
  await send(
    'post',
    `/api/v1/clusters/${cluster.id}/components`,
    {
      name: 'nats',
      spec: {
        component: 'nats',
        version: '2.10.18',
        replicas: 3,
        artifacts: [
          { name: 'nats', image: `registry.internal/navin/nats@${NATS}` },
          { name: 'exporter', image: `registry.internal/navin/nats-exporter@${NATS_EXPORTER}` },
        ],
      },
    },
    202,
  );
  // Later the mirror loses the exporter image (pruned by hand): the acceptance must show it.
  await deleteManifest(registry, 'navin/nats-exporter', NATS_EXPORTER);

  report = (await send('post', `/api/v1/clusters/${cluster.id}/acceptance`, undefined, 201)) as Report;
  for (const lang of ['en', 'fr'] as const) {
    const res = await api.get(`/api/v1/reports/${report.payload.report_id}/html?lang=${lang}`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('text/html; charset=utf-8');
    files[lang] = join(dir, `report-${lang}.html`);
    writeFileSync(files[lang], await res.text());
  }
});

test.afterAll(async () => {
  await api?.dispose();
  await registry?.stop();
  await manager?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const HEADINGS = {
  en: {
    h1: 'Signed acceptance report',
    sections: ['Report details', 'Summary', 'Checks and evidence', 'How to verify this report'],
    notice: 'This page is not proof by itself.',
  },
  fr: {
    h1: 'Rapport de recette signé',
    sections: ['Détails du rapport', 'Synthèse', 'Vérifications et preuves', 'Comment vérifier ce rapport'],
    notice: 'Cette page ne constitue pas une preuve à elle seule.',
  },
};

for (const lang of ['en', 'fr'] as const) {
  test(`the ${lang === 'en' ? 'English' : 'French'} report opens offline from a file with its headings, verdict and every line`, async ({
    page,
  }) => {
    const outside: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) outside.push(r.url());
    });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(files[lang]).href);

    const words = HEADINGS[lang];
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(words.h1);
    for (const s of words.sections) await expect(page.getByRole('heading', { level: 2, name: s })).toBeVisible();
    await expect(page.getByRole('note')).toContainText(words.notice);
    await expect(page.locator('.verdict-value')).toHaveText(report.payload.verdict);
    await expect(page.locator('.verify')).toContainText('navin-manager verify-report --file report.json --public-key manager.pem');
    await expect(page.locator('.verify')).toContainText(report.payload.key_fingerprint);

    const articles = page.locator('article.line');
    await expect(articles).toHaveCount(report.payload.lines.length);
    for (const l of report.payload.lines) {
      const a = page.locator(`article[data-line-id="${l.id}"]`);
      await expect(a).toHaveAttribute('data-status', l.status);
      await expect(a.locator('h3')).toHaveText(l.title[lang]);
      await expect(a.locator('.status')).toHaveText(l.status);
    }
    // What this report must show: a PASS on the mirror for opa, a FAIL naming the missing nats image.
    await expect(page.locator('article[data-line-id="install.offline_source.opa"]')).toHaveAttribute('data-status', 'PASS');
    await expect(page.locator('article[data-line-id="install.offline_source.nats"] .reason')).toContainText(
      `registry.internal/navin/nats-exporter@${NATS_EXPORTER}`,
    );
    expect(report.payload.verdict).toBe('FAIL');

    await page.screenshot({ path: join(SHOTS, `report-${lang}.png`), fullPage: true });
    // Printed, the status colours stay and nothing is cut: the verdict is still shown.
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('.verdict-value')).toBeVisible();
    expect(outside, 'the page loaded nothing from outside').toEqual([]);
    expect(errors).toEqual([]);
    expect(await page.locator('script').count()).toBe(0);
  });
}
