// The Mirror screen in Chromium against the headless manager and a real registry: an admin trusts the release
// key, imports a bundle built by the CLI and copied into the manager's imports folder, watches the progress bar, sees what
// the mirror holds per service and version; a tampered bundle is refused with its code.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, request, test, type Page } from '@playwright/test';
import { ALICE, REPO_ROOT, runCli, startManager, type RunningManager } from './support/manager';
import { startRegistry, type TestRegistry } from '../support/registry';

const SHOTS = join(REPO_ROOT, 'test-results', 'screenshots');
const NATS_BINARY = 'sha256:99bc0bf81d296f1f7d96091643825168f9fbe03343a88afe8f253f8e136a0182';

let manager: RunningManager;
let registry: TestRegistry;
let dir: string;
let bundle: string;
let tampered: string;
let pem: string;

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1280, height: 1000 } });

test.beforeAll(async () => {
  [manager, registry] = await Promise.all([startManager({ users: [ALICE] }), startRegistry()]);
  dir = mkdtempSync(join(tmpdir(), 'navin-mirror-e2e-'));
  const key = join(dir, 'release.key');
  const pw = join(dir, 'pw');
  writeFileSync(pw, 'correct horse battery staple\n');
  for (const args of [
    ['release-key', 'create', '--key-file', key, '--passphrase-file', pw],
    ['release-key', 'export', '--key-file', key, '--out', join(dir, 'release.pem')],
    // etcd (two versions), NATS and the node exporter: enough bytes for the progress bar to be seen.
    ['bundle', 'build', '--out', join(dir, 'bundle.tar'), '--key-file', key, '--passphrase-file', pw],
  ]) {
    const r = await runCli(args, 120_000);
    expect(r.code, r.out).toBe(0);
  }
  // Over HTTPS the manager reads a bundle only from its imports folder: the operator copies it there first.
  const imports = join(manager.dataDir, 'imports');
  mkdirSync(imports, { recursive: true });
  bundle = join(imports, 'bundle.tar');
  copyFileSync(join(dir, 'bundle.tar'), bundle);
  pem = readFileSync(join(dir, 'release.pem'), 'utf8');
  // A copy with one byte of the NATS binary changed, in place (same size, same tar layout).
  const bytes = readFileSync(bundle);
  const at = bytes.indexOf(Buffer.from(`blobs/sha256/${NATS_BINARY.slice(7)}`));
  bytes.writeUInt8(bytes.readUInt8(at + 512 + 4096) ^ 1, at + 512 + 4096);
  tampered = join(imports, 'tampered.tar');
  writeFileSync(tampered, bytes);

  const api = await request.newContext({ baseURL: new URL(manager.url).origin, ignoreHTTPSErrors: true });
  const token = await manager.token(ALICE.name);
  const put = await api.put('/api/v1/settings/mirror', {
    data: { url: registry.url, ca_pem: registry.caPem },
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(put.status(), await put.text()).toBe(200);
  await api.dispose();
});

test.afterAll(async () => {
  await manager?.stop();
  await registry?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function signIn(page: Page): Promise<void> {
  await page.goto(new URL(manager.url).origin + '/');
  await page.getByLabel('Name').fill(ALICE.name);
  await page.getByLabel('Password').fill(ALICE.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('current-user')).toContainText(ALICE.name);
}

test('an admin trusts the release key, imports a bundle with a progress bar and sees the mirror contents', async ({ page }) => {
  await signIn(page);
  await page.getByTestId('nav-mirror').click();
  const screen = page.getByTestId('screen-mirror');
  await expect(screen).toBeVisible();
  await expect(screen.getByTestId('mirror-empty')).toBeVisible();
  await expect(screen.getByTestId('release-keys-none')).toBeVisible();

  await screen.getByTestId('release-key-pem').fill(pem);
  await screen.getByTestId('release-key-label').fill('ops release');
  await screen.getByTestId('release-key-add').click();
  await expect(screen.getByTestId('release-key')).toContainText('ops release');

  await screen.getByTestId('bundle-path').fill(bundle);
  const progressSeen = page.waitForSelector('[data-testid="mirror-progress"]', { state: 'attached', timeout: 30_000 });
  await screen.getByTestId('bundle-import').click();
  const bar = await progressSeen;
  expect(await bar.getAttribute('max')).toBe('1');
  await page.screenshot({ path: join(SHOTS, 'mirror-importing.png'), fullPage: true }).catch(() => undefined);
  const status = screen.getByTestId('mirror-import-status');
  await expect(status).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  // The shipped catalog: seven binaries, and the databases' Debian packages (23 for PostgreSQL, 27 for MariaDB).
  await expect(screen.getByTestId('mirror-import-done')).toContainText('57 tags');

  const rows = screen.getByTestId('mirror-artifact');
  await expect(rows).toHaveCount(57);
  const nats = screen.locator('[data-testid="mirror-artifact"][data-key="nats:nats-server@2.9.10-1"]');
  await expect(nats).toContainText('2.9.10-1');
  await expect(nats).toContainText('amd64');
  await expect(nats.getByTestId('mirror-catalog-state')).toHaveText('Matches the catalog');
  await expect(screen.locator('[data-testid="mirror-artifact"][data-key="etcd:etcd@3.4.23-2"]')).toBeVisible();
  await expect(screen.locator('[data-testid="mirror-artifact"][data-key="node-exporter:node-exporter@1.5.0-2"]')).toBeVisible();
  await page.screenshot({ path: join(SHOTS, 'mirror.png'), fullPage: true });
});

test('a tampered bundle is refused with digest_mismatch', async ({ page }) => {
  await signIn(page);
  await page.getByTestId('nav-mirror').click();
  const screen = page.getByTestId('screen-mirror');
  await screen.getByTestId('bundle-path').fill(tampered);
  await screen.getByTestId('bundle-import').click();
  const refused = screen.getByTestId('mirror-import-refused');
  await expect(refused).toBeVisible({ timeout: 60_000 });
  await expect(refused).toContainText('digest_mismatch');
  await expect(refused).toContainText('A file does not match its sha256');
  await expect(refused).toContainText(`blobs/sha256/${NATS_BINARY.slice(7)}`);
  await page.screenshot({ path: join(SHOTS, 'mirror-refused.png'), fullPage: true });
});
