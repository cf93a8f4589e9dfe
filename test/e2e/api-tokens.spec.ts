// The API tokens of an account in Settings → Users, end to end in Chromium against the headless manager: a token
// created with a lifetime shows its secret once and works as a Bearer; revoked from the same panel, it gets 401
// token_revoked.
import { join } from 'node:path';
import { expect, request, test } from '@playwright/test';
import { ALICE, REPO_ROOT, startManager, type RunningManager } from './support/manager';

const SHOTS = join(REPO_ROOT, 'test-results', 'screenshots');
let manager: RunningManager;
let origin: string;

test.use({ locale: 'en-GB', viewport: { width: 1360, height: 900 }, colorScheme: 'light' });

test.beforeAll(async () => {
  manager = await startManager({ users: [ALICE] });
  origin = new URL(manager.url).origin;
});
test.afterAll(async () => {
  await manager?.stop();
});

test('an administrator creates an API token with a lifetime in Users, sees its secret once, and revokes it', async ({ page }) => {
  await page.goto(origin + '/');
  await page.getByLabel('Name').fill(ALICE.name);
  await page.getByLabel('Password').fill(ALICE.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Clusters' })).toBeVisible();

  await page.goto(origin + '/#/settings/users');
  await page.locator('[data-testid="user-row"][data-user-name="alice"]').getByTestId('user-tokens').click();
  const panel = page.getByTestId('tokens-panel');
  await expect(panel).toHaveAttribute('data-user-name', 'alice');
  await expect(panel.getByTestId('tokens-empty')).toBeVisible();

  await panel.getByTestId('token-label').fill('ci-nightly');
  await panel.getByTestId('token-lifetime').selectOption('30');
  await panel.getByTestId('token-create').click();
  const secret = (await panel.getByTestId('token-secret').textContent())?.trim() ?? '';
  expect(secret.length).toBeGreaterThan(20);
  const row = panel.getByTestId('token-row');
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-state', 'active');
  await expect(row).toContainText('ci-nightly');
  await expect(row).toContainText('Active');
  const id = (await row.getAttribute('data-token-id')) ?? '';
  await page.screenshot({ path: join(SHOTS, 'settings-tokens-en.png') });

  // The secret is shown once: dismissed, it is gone from the page, and a reopened panel never shows it.
  await panel.getByTestId('token-dismiss').click();
  await expect(panel.getByTestId('token-secret')).toHaveCount(0);

  const api = await request.newContext({ ignoreHTTPSErrors: true, extraHTTPHeaders: { Authorization: `Bearer ${secret}` } });
  try {
    expect((await api.get(`${origin}/api/v1/clusters`)).status()).toBe(200);
    const listed = (await (await api.get(`${origin}/api/v1/users/alice/tokens`)).json()) as { items: { id: string; expires_at: string }[] };
    const days = (Date.parse(listed.items.find((t) => t.id === id)!.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);

    await panel.getByTestId('token-revoke').click();
    await expect(row).toHaveAttribute('data-state', 'revoked');
    await expect(row).toContainText('Revoked');
    await expect(panel.getByTestId('tokens-announcement')).toContainText(`Token ${id} revoked.`);
    const refused = await api.get(`${origin}/api/v1/clusters`);
    expect(refused.status()).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('token_revoked');
  } finally {
    await api.dispose();
  }

  await panel.getByTestId('tokens-close').click();
  await expect(page.getByTestId('tokens-panel')).toHaveCount(0);
});
