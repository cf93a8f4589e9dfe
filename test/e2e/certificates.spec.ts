// The Certificates screen and the shell's alert in Chromium against the headless manager: the manager's own
// certificates (console, gateway) are listed beside two service certificates of a cluster's service CA, one with
// 5 days left; the alert names it on every screen and its link opens the fleet, sorted by expiry, on that row.
// The two service certificates are written into the certificates ledger as the service CA records what it signs
// (issuing one for real takes a host's CSR, which needs a node agent): the screen reads the ledger, not the PEMs.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, request, test, type Page } from '@playwright/test';
import { ALICE, REPO_ROOT, startManager, type RunningManager } from './support/manager';

const SHOTS = join(REPO_ROOT, 'test-results', 'screenshots');
const DAY = 86_400_000;
const SOON = 'e2e5a0c0ffee01';
const LATER = 'e2e5a0c0ffee02';

let manager: RunningManager;

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1280, height: 900 } });

function ledgerRow(serial: string, clusterId: string, host: string, days: number): Record<string, unknown> {
  const now = Date.now();
  const notAfter = new Date(now + days * DAY + 3_600_000);
  const notBefore = new Date(now - 80 * DAY);
  return {
    serial,
    cluster_id: clusterId,
    service: 'etcd',
    ca_serial: 'e2eca01',
    subject: `CN=${host}`,
    dns_names: JSON.stringify([host]),
    ip_addresses: JSON.stringify(['198.18.7.10']),
    not_before: notBefore.toISOString(),
    not_after: notAfter.toISOString(),
    renew_after: new Date(notBefore.getTime() + ((notAfter.getTime() - notBefore.getTime()) * 2) / 3).toISOString(),
    fingerprint_sha256: serial.padEnd(64, '0'),
    issued_at: notBefore.toISOString(),
  };
}

test.beforeAll(async () => {
  manager = await startManager({ users: [ALICE] });
  const api = await request.newContext({ baseURL: new URL(manager.url).origin, ignoreHTTPSErrors: true });
  const token = await manager.token(ALICE.name);
  const created = await api.post('/api/v1/clusters', {
    data: { name: 'edge-tls', kind: 'hosts' },
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  const clusterId = ((await created.json()) as { id: string }).id;
  await api.dispose();
  const db = new Database(join(manager.dataDir, 'navin.db'));
  try {
    const insert = db.prepare(
      `INSERT INTO issued_certificates (serial, cluster_id, host_id, kind, service, ca_serial, subject, dns_names, ip_addresses,
         not_before, not_after, renew_after, fingerprint_sha256, issued_at, state, superseded_by, revoked_at)
       VALUES (@serial, @cluster_id, NULL, 'service', @service, @ca_serial, @subject, @dns_names, @ip_addresses,
         @not_before, @not_after, @renew_after, @fingerprint_sha256, @issued_at, 'issued', NULL, NULL)`,
    );
    insert.run(ledgerRow(SOON, clusterId, 'etcd-0', 5));
    insert.run(ledgerRow(LATER, clusterId, 'etcd-1', 60));
  } finally {
    db.close();
  }
});

test.afterAll(async () => {
  await manager?.stop();
});

async function signIn(page: Page): Promise<void> {
  // What the page reports goes to the test's output: a blank page then says why.
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  await page.goto(new URL(manager.url).origin + '/');
  await page.getByLabel('Name').fill(ALICE.name);
  await page.getByLabel('Password').fill(ALICE.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('current-user')).toContainText(ALICE.name);
}

test('the alert names the certificate under 14 days and leads to it in the fleet, sorted by expiry', async ({ page }) => {
  await signIn(page);
  // The alert is in the shell: it shows on the clusters screen the console opens on.
  const alert = page.getByTestId('certificates-alert');
  await expect(alert).toBeVisible();
  await expect(alert).toHaveAttribute('data-count', '1');
  await expect(alert).toContainText('CN=etcd-0');
  await expect(alert).toContainText(/[45] days left/);
  await page.screenshot({ path: join(SHOTS, 'certificates-alert.png') });

  await page.getByTestId('certificates-alert-first').click();
  const screen = page.getByTestId('screen-certificates');
  await expect(screen).toBeVisible();
  await expect(page).toHaveURL(/#\/certificates$/);
  const soon = screen.locator(`[data-testid="certificate-row"][data-serial="${SOON}"]`);
  await expect(soon).toHaveAttribute('data-focused', 'true');
  await expect(soon).toHaveAttribute('data-expiring', 'true');
  await expect(soon.getByTestId('certificate-expiring')).toBeVisible();
  await expect(soon).toContainText('Names: etcd-0, 198.18.7.10');

  // Every certificate, the soonest first: the manager's own (console, gateway) are there with the services'.
  const rows = screen.getByTestId('certificate-row');
  await expect(rows.first()).toHaveAttribute('data-serial', SOON);
  await expect(screen.locator(`[data-testid="certificate-row"][data-serial="${LATER}"]`)).toHaveAttribute('data-expiring', 'false');
  await expect(screen.locator('[data-testid="certificate-row"][data-kind="gateway"]').first()).toBeVisible();
  const days = await rows.getByTestId('days-left').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-days'))));
  expect(days.length).toBeGreaterThanOrEqual(3);
  expect([...days].sort((a, b) => a - b)).toEqual(days);
  await page.screenshot({ path: join(SHOTS, 'certificates-screen.png') });

  await page.getByTestId('certificates-expiring-only').check();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-serial', SOON);
});
