// End-to-end of the install profile and the second factor in Chromium against the real headless manager: a
// standard cluster is blocked while its administrator has no TOTP (seen by a viewer, whom the profile does not
// require a second factor of), the administrator is made to enrol on next sign-in, enrols with a code computed
// from the secret the console shows, saves the recovery codes, and the rule then passes.
import { expect, test, type Page } from '@playwright/test';
import { TOTP } from 'otpauth';
import { ALICE, startManager, type ManagerUser, type RunningManager } from './support/manager';

const VICTOR: ManagerUser = { name: 'victor', role: 'viewer', password: 'viewer-horse-battery-staple' };
const RULE = 'profile.mfa_admin_roles';

let manager: RunningManager;
let origin: string;

test.use({ locale: 'en-GB', viewport: { width: 1360, height: 900 }, colorScheme: 'light' });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  manager = await startManager({ users: [ALICE, VICTOR] });
  origin = new URL(manager.url).origin;
});

test.afterAll(async () => {
  await manager?.stop();
});

function watchPage(page: Page): () => string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // Refusals the flow provokes on purpose (403 until enrolment, 404 before the first preflight run).
    if (m.type() === 'error' && !/Failed to load resource: the server responded with a status of (401|403|404|409)/.test(m.text()))
      problems.push(`console: ${m.text()}`);
  });
  return () => problems;
}

async function signIn(page: Page, user: ManagerUser): Promise<void> {
  await page.goto(origin + '/');
  await page.getByLabel('Name').fill(user.name);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signOut(page: Page): Promise<void> {
  await page.getByTestId('logout').click();
  await expect(page.getByTestId('login-form')).toBeVisible();
}

test('a standard profile is blocked until the administrator enrols TOTP', async ({ page }) => {
  const problems = watchPage(page);
  let clusterId = '';

  await test.step('the administrator creates a standard cluster in the wizard', async () => {
    await signIn(page, ALICE);
    await expect(page.getByTestId('current-user')).toContainText('alice');
    await page.getByTestId('new-cluster').click();
    const form = page.getByTestId('create-cluster-form');
    await form.getByLabel(/^Name/).fill('edge-std');
    const profiles = form.getByTestId('cluster-profile-choice');
    await expect(profiles.getByTestId('profile-development')).toBeChecked();
    // Each profile lists its rules as the manager's catalog names them (GET /api/v1/profiles).
    await expect(profiles.getByTestId('profile-rules-development')).toContainText('Valid catalog');
    await expect(profiles.getByTestId('profile-rules-development')).not.toContainText('MFA required');
    await expect(profiles.getByTestId('profile-rules-standard')).toContainText('MFA required for administration roles');
    await profiles.getByTestId('profile-standard').check();
    await page.getByTestId('cluster-fqdn').fill('edge-std.internal');
    await page.getByTestId('cluster-address').fill('10.0.0.10');
    await form.getByRole('button', { name: 'Create the cluster' }).click();
    // From now on the manager requires the administrator's second factor: the next call may already be refused.
    await expect(page.getByTestId('cluster-page').or(page.getByTestId('mfa-required'))).toBeVisible();
  });

  await test.step('the administrator is sent to the enrolment screen', async () => {
    await page.reload();
    await expect(page.getByTestId('mfa-required')).toBeVisible();
    await page.getByTestId('logout').click();
    await expect(page.getByTestId('login-form')).toBeVisible();
  });

  await test.step('a viewer sees the profile blocked by the administrator without TOTP', async () => {
    await signIn(page, VICTOR);
    await expect(page.getByTestId('current-user')).toContainText('victor');
    const res = await page.request.get(`${origin}/api/v1/clusters`);
    clusterId = ((await res.json()) as { items: { id: string; name: string }[] }).items.find((c) => c.name === 'edge-std')!.id;
    await page.goto(`${origin}/#/clusters/${encodeURIComponent(clusterId)}/profile`);
    await expect(page.getByTestId('profile-name')).toHaveAttribute('data-profile', 'standard');
    await expect(page.getByTestId('profile-status')).toHaveAttribute('data-profile-status', 'blocked');
    const rule = page.locator(`[data-testid="profile-rules"] [data-check-id="${RULE}"]`);
    await expect(rule).toHaveAttribute('data-check-status', 'fail');
    await expect(rule.getByTestId('check-reason')).toContainText('alice');
    await rule.locator('summary').click();
    await expect(rule.getByTestId('check-evidence-text')).toContainText('"method"');
    await signOut(page);
  });

  await test.step('the administrator enrols with a code computed from the secret shown', async () => {
    await signIn(page, ALICE);
    await expect(page.getByTestId('mfa-required')).toBeVisible();
    await page.getByTestId('mfa-start').click();
    await expect(page.getByTestId('mfa-qr')).toHaveAttribute('src', /^data:image\/svg\+xml;base64,/);
    const secret = (await page.getByTestId('mfa-secret').textContent())!.trim();
    const totp = new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' });
    await page.getByTestId('mfa-confirm-code').fill(totp.generate());
    await page.getByTestId('mfa-confirm').click();
    await expect(page.getByTestId('mfa-recovery')).toContainText('Save these recovery codes now');
    await expect(page.getByTestId('mfa-recovery-codes').locator('li').first()).toBeVisible();
    await page.getByTestId('mfa-recovery-done').click();
    await expect(page.getByTestId('current-user')).toContainText('alice');
  });

  await test.step('the rule now passes, and the next sign-in asks for the code', async () => {
    await page.goto(`${origin}/#/clusters/${encodeURIComponent(clusterId)}/profile`);
    const rule = page.locator(`[data-testid="profile-rules"] [data-check-id="${RULE}"]`);
    await expect(rule).toHaveAttribute('data-check-status', 'pass');
    await page.getByTestId('run-checks').click();
    await expect(page.getByTestId('preflight-run')).toBeVisible();
    await expect(page.locator(`[data-testid="preflight-checks"] [data-check-id="${RULE}"]`)).toHaveAttribute('data-check-status', 'pass');
    await signOut(page);
    await signIn(page, ALICE);
    await expect(page.getByTestId('mfa-form')).toBeVisible();
  });

  expect(problems()).toEqual([]);
});
