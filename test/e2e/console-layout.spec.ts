// Rough edges a new user hit in the console (issue 22): the Reports action buttons fit at the widths of an ops
// room's screens in English and French (screenshots in test-results/), and the install profiles read as a short
// title with a few rule lines.
import { join } from 'node:path';
import { expect, request, test, type Page } from '@playwright/test';
import { ALICE, REPO_ROOT, startManager, type RunningManager } from './support/manager';

const SHOTS = join(REPO_ROOT, 'test-results', 'screenshots');

let manager: RunningManager;
let origin: string;

test.use({ locale: 'en-GB', colorScheme: 'light' });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  manager = await startManager({ users: [ALICE] });
  origin = new URL(manager.url).origin;
  // Two clusters, each with a signed acceptance report, so the list has rows of action buttons.
  const api = await request.newContext({ baseURL: origin, ignoreHTTPSErrors: true });
  try {
    const login = await api.post('/api/v1/session', { data: { name: ALICE.name, password: ALICE.password } });
    expect(login.status()).toBe(200);
    const headers = { 'X-CSRF-Token': ((await login.json()) as { csrf_token: string }).csrf_token };
    for (const name of ['edge-paris-01', 'core-eu-west-long-name.1']) {
      const res = await api.post('/api/v1/clusters', { data: { name }, headers });
      expect(res.status(), await res.text()).toBe(201);
      const { id } = (await res.json()) as { id: string };
      const report = await api.post(`/api/v1/clusters/${id}/acceptance`, { headers });
      expect(report.status(), await report.text()).toBe(201);
    }
  } finally {
    await api.dispose();
  }
});

test.afterAll(async () => {
  await manager?.stop();
});

async function signIn(page: Page, lang: 'en' | 'fr'): Promise<void> {
  await page.goto(origin + '/');
  await page.getByLabel('Name').fill(ALICE.name);
  await page.getByLabel('Password').fill(ALICE.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Clusters' })).toBeVisible();
  if (lang === 'fr') {
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('language-switch').getByRole('radio', { name: 'Français' }).check();
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  }
}

for (const lang of ['en', 'fr'] as const) {
  for (const width of [1280, 1440]) {
    test(`reports in ${lang} at ${width} px: every action button shows its whole label, on one row`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signIn(page, lang);
      await page.getByTestId('nav-reports').click();
      const rows = page.getByTestId('report-row');
      await expect(rows).toHaveCount(2);
      await page.screenshot({ path: join(SHOTS, `reports-actions-${lang}-${width}.png`), fullPage: true });
      const buttons = page.locator('[data-testid="report-row"] .report-actions > *');
      await expect(buttons).toHaveCount(6);
      const measures = await buttons.evaluateAll((els) =>
        els.map((el) => ({ text: el.textContent, scroll: el.scrollWidth, client: el.clientWidth, top: el.getBoundingClientRect().top })),
      );
      for (const m of measures) expect(m.scroll, `"${m.text}" is clipped`).toBeLessThanOrEqual(m.client);
      // The three buttons of a row stand side by side, not two on one line and the third below.
      for (const i of [0, 3]) expect(new Set(measures.slice(i, i + 3).map((m) => Math.round(m.top))).size).toBe(1);
      // Nor does the table spill out of its panel sideways.
      const wrap = page.getByTestId('reports-list').locator('.table-wrap');
      expect(await wrap.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    });
  }

  test(`the install profiles in ${lang}: a short title and its rules as a list`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 1000 });
    await signIn(page, lang);
    await page.getByTestId('nav-clusters').click();
    await page.getByTestId('new-cluster').click();
    const choice = page.getByTestId('cluster-profile-choice');
    for (const p of ['development', 'standard', 'banking-secure', 'air-gapped', 'hybrid']) {
      const option = choice.locator('label', { has: page.getByTestId(`profile-${p}`) });
      const title = option.locator('.radio-title');
      await expect(title).toBeVisible();
      expect((await title.innerText()).length).toBeLessThanOrEqual(30);
      const rules = option.getByTestId(`profile-rules-${p}`).getByRole('listitem');
      expect(await rules.count()).toBeGreaterThan(0);
      for (const text of await rules.allInnerTexts()) expect(text.length, text).toBeLessThanOrEqual(100);
      // A rule line is plain text, not bold.
      expect(Number(await rules.first().evaluate((el) => getComputedStyle(el).fontWeight))).toBeLessThan(600);
    }
    await page.screenshot({ path: join(SHOTS, `profiles-${lang}.png`), fullPage: true });
  });
}
