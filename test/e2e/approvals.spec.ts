// End-to-end of the four-eyes Approvals screen in Chromium against the real headless manager: on a
// banking-secure cluster an operator asks for an uninstall, a second administrator (signed in with password and
// TOTP) approves it with a note and cannot decide his own request, and the operator then finds it approved and
// usable, with the approver named.
import { expect, request, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { TOTP } from 'otpauth';
import { ALICE, startManager, type ManagerUser, type RunningManager } from './support/manager';

const BOB: ManagerUser = { name: 'bob', role: 'admin', password: 'second-admin-horse-staple' };
const OLGA: ManagerUser = { name: 'olga', role: 'operator', password: 'operator-horse-battery' };
const CLUSTER = 'vault-paris-01';
const REASON = 'OPA is replaced by the bank policy engine (change CHG-2291)';
const NOTE = 'Checked with the change board';
const BOB_REASON = 'Restart after the certificate rotation';
const STEP_MS = 30_000;

let manager: RunningManager;
let origin: string;
const apis: APIRequestContext[] = [];
/** The TOTP secret of each admin and the last step a code of it was spent on (the manager refuses a replay). */
const factors = new Map<string, { totp: TOTP; lastStep: number }>();

test.use({ locale: 'en-GB', viewport: { width: 1360, height: 900 }, colorScheme: 'light' });
test.describe.configure({ mode: 'serial' });

/** A code of a step not spent yet: the current one, or the next (inside the manager's one-step drift). */
async function freshCode(user: string): Promise<string> {
  const f = factors.get(user)!;
  let step = Math.max(Math.floor(Date.now() / STEP_MS), f.lastStep + 1);
  while (step > Math.floor(Date.now() / STEP_MS) + 1) await new Promise((r) => setTimeout(r, 500));
  step = Math.max(step, Math.floor(Date.now() / STEP_MS));
  f.lastStep = step;
  return f.totp.generate({ timestamp: step * STEP_MS });
}

/** A signed-in API session of `user` (cookie kept by the context, CSRF token sent on every change). */
async function apiSession(user: ManagerUser): Promise<(path: string, data: unknown, status: number) => Promise<unknown>> {
  const api = await request.newContext({ baseURL: origin, ignoreHTTPSErrors: true });
  apis.push(api);
  const login = await api.post('/api/v1/session', { data: { name: user.name, password: user.password } });
  expect(login.status(), await login.text()).toBe(200);
  const csrf = ((await login.json()) as { csrf_token: string }).csrf_token;
  return async (path, data, status) => {
    const res = await api.post(path, { data, headers: { 'X-CSRF-Token': csrf } });
    expect(res.status(), `POST ${path} as ${user.name}: ${await res.text()}`).toBe(status);
    return res.json();
  };
}

async function enrolTotp(post: (path: string, data: unknown, status: number) => Promise<unknown>, user: string): Promise<void> {
  const { secret } = (await post('/api/v1/session/mfa/enrolment', {}, 200)) as { secret: string };
  factors.set(user, { totp: new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' }), lastStep: -1 });
  const { recovery_codes } = (await post('/api/v1/session/mfa/enrolment/confirm', { code: await freshCode(user) }, 200)) as {
    recovery_codes: string[];
  };
  expect(recovery_codes.length).toBeGreaterThan(0);
}

test.beforeAll(async () => {
  manager = await startManager({ users: [ALICE, BOB, OLGA] });
  origin = new URL(manager.url).origin;

  const asAlice = await apiSession(ALICE);
  const cluster = (await asAlice('/api/v1/clusters', { name: CLUSTER, tenant: 'banking', profile: 'banking-secure' }, 201)) as {
    id: string;
    profile?: string;
  };
  expect(cluster.id).toBeTruthy();
  // From now on the profile requires the admins' second factor: anything but the enrolment is refused.
  const refused = await apis[0]!.get('/api/v1/clusters');
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('mfa_enrollment_required');
  await enrolTotp(asAlice, ALICE.name);
  await enrolTotp(await apiSession(BOB), BOB.name);
});

test.afterAll(async () => {
  for (const api of apis) await api.dispose();
  await manager?.stop();
});

function watchPage(page: Page): () => string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // The 401 of GET /api/v1/session before each sign-in is expected.
    if (m.type() === 'error' && !/Failed to load resource: the server responded with a status of 401/.test(m.text()))
      problems.push(`console: ${m.text()}`);
  });
  return () => problems;
}

async function signIn(page: Page, user: ManagerUser): Promise<void> {
  await page.goto(origin + '/');
  await page.getByLabel('Name').fill(user.name);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (factors.has(user.name)) {
    await expect(page.getByTestId('mfa-form')).toBeVisible();
    await page.getByTestId('mfa-code').fill(await freshCode(user.name));
    await page.getByTestId('mfa-submit').click();
  }
  await expect(page.getByTestId('current-user')).toContainText(user.name);
}

async function signOut(page: Page): Promise<void> {
  await page.getByTestId('logout').click();
  await expect(page.getByTestId('login-form')).toBeVisible();
}

async function openApprovals(page: Page): Promise<Locator> {
  await page.getByTestId('nav-approvals').click();
  const screen = page.getByTestId('screen-approvals');
  await expect(screen).toBeVisible();
  return screen;
}

async function requestApproval(screen: Locator, action: string, service: string, reason: string): Promise<void> {
  const form = screen.getByTestId('approval-request-form');
  await form.getByTestId('approval-cluster').selectOption({ label: CLUSTER });
  await form.getByTestId('approval-action').selectOption({ label: action });
  await form.getByTestId('approval-service').fill(service);
  await form.getByTestId('approval-reason').fill(reason);
  await form.getByTestId('approval-submit').click();
  await expect(form.getByTestId('approval-sent')).toContainText(`Requested: ${action} on ${service}`);
  await expect(form.getByTestId('approval-reason')).toHaveValue('');
}

const rowOf = (screen: Locator, reason: string): Locator => screen.getByTestId('approval-row').filter({ hasText: reason });

test('an operator’s request is approved by a second administrator, never by its requester', async ({ page }) => {
  const problems = watchPage(page);
  let approvalId = '';

  await test.step('the operator requests an uninstall and cannot decide it', async () => {
    await signIn(page, OLGA);
    const screen = await openApprovals(page);
    await expect(screen.getByTestId('approvals-empty')).toBeVisible();
    await requestApproval(screen, 'Uninstall', 'opa', REASON);
    const row = rowOf(screen, REASON);
    await expect(row).toHaveCount(1);
    await expect(row).toHaveAttribute('data-state', 'pending');
    await expect(row).toHaveAttribute('data-usable', 'false');
    await expect(row.locator('th')).toHaveText('Uninstall opa');
    await expect(row).toContainText(CLUSTER);
    await expect(row).toContainText('by olga');
    await expect(row).toContainText('your request');
    await expect(row.getByTestId('approval-state')).toHaveText('Pending');
    await expect(row).toContainText('Waiting for another administrator');
    await expect(row.getByTestId('approve')).toHaveCount(0);
    await expect(row.getByTestId('reject')).toHaveCount(0);
    await expect(row.getByTestId('approval-note')).toHaveCount(0);
    approvalId = (await row.getAttribute('data-approval-id'))!;
    expect(approvalId).toBeTruthy();
    // What the screen shows is what the manager holds.
    const listed = (await (await page.request.get(`${origin}/api/v1/approvals`)).json()) as {
      items: { id: string; state: string; action: string; service: string; reason: string }[];
    };
    expect(listed.items).toEqual([
      expect.objectContaining({ id: approvalId, state: 'pending', action: 'uninstall', service: 'opa', reason: REASON }),
    ]);
    await signOut(page);
  });

  await test.step('a second administrator, signed in with TOTP, approves it with a note', async () => {
    await signIn(page, BOB);
    const screen = await openApprovals(page);
    const row = screen.locator(`[data-testid="approval-row"][data-approval-id="${approvalId}"]`);
    await expect(row).toHaveAttribute('data-state', 'pending');
    await expect(row).toContainText(REASON);
    await expect(row).toContainText('by olga');
    await expect(row).not.toContainText('your request');
    await row.getByTestId('approval-note').fill(NOTE);
    await row.getByTestId('approve').click();
    await expect(row).toHaveAttribute('data-state', 'approved');
    await expect(row.getByTestId('approval-state')).toHaveText('Approved');
    await expect(row).toContainText('Decided by bob');
    await expect(row).toContainText(`Note: ${NOTE}`);
    await expect(row).toContainText('Usable until');
    // Usable by its requester only, not by the approver.
    await expect(row).toHaveAttribute('data-usable', 'false');
    await expect(row.getByTestId('approval-usable')).toHaveCount(0);
    await expect(row.getByTestId('approve')).toHaveCount(0);
    await expect(screen.getByTestId('approval-decision-error')).toHaveCount(0);
  });

  await test.step('the administrator’s own request offers him no decision', async () => {
    const screen = page.getByTestId('screen-approvals');
    await requestApproval(screen, 'Restart', 'opa', BOB_REASON);
    const own = rowOf(screen, BOB_REASON);
    await expect(own).toHaveAttribute('data-state', 'pending');
    await expect(own).toContainText('your request');
    await expect(own).toContainText('Waiting for another administrator');
    await expect(own.getByTestId('approve')).toHaveCount(0);
    await expect(own.getByTestId('reject')).toHaveCount(0);
    // The manager refuses it too, not only the screen.
    const ownId = (await own.getAttribute('data-approval-id'))!;
    const { csrf_token } = (await (await page.request.get(`${origin}/api/v1/session`)).json()) as { csrf_token: string };
    const self = await page.request.post(`${origin}/api/v1/approvals/${ownId}/approve`, {
      data: {},
      headers: { 'X-CSRF-Token': csrf_token },
    });
    expect(self.status()).toBe(403);
    expect(((await self.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'approval_self',
      message: expect.stringContaining('another admin'),
    });
    await signOut(page);
  });

  await test.step('the operator finds her request approved by bob and usable', async () => {
    await signIn(page, OLGA);
    const screen = await openApprovals(page);
    const row = screen.locator(`[data-testid="approval-row"][data-approval-id="${approvalId}"]`);
    await expect(row).toHaveAttribute('data-state', 'approved');
    await expect(row).toHaveAttribute('data-usable', 'true');
    await expect(row.getByTestId('approval-state')).toHaveText('Approved');
    await expect(row.getByTestId('approval-usable')).toHaveText('You can launch the operation with it.');
    await expect(row).toContainText('Decided by bob');
    await expect(row).toContainText(`Note: ${NOTE}`);
    await expect(row.getByTestId('approve')).toHaveCount(0);
    // bob's own request is still pending, and the operator cannot decide it either.
    const bobs = rowOf(screen, BOB_REASON);
    await expect(bobs).toHaveAttribute('data-state', 'pending');
    await expect(bobs).toContainText('by bob');
    await expect(bobs.getByTestId('approve')).toHaveCount(0);
    await expect(bobs).toContainText('Waiting for an administrator');
    await screen.getByTestId('approvals-filter-state').selectOption('approved');
    await expect(screen.getByTestId('approval-row')).toHaveCount(1);
    await expect(screen.getByTestId('approval-row')).toHaveAttribute('data-approval-id', approvalId);
  });

  expect(problems()).toEqual([]);
});
