// The operators' whole cluster path in Chromium, against the real headless manager, the Kubernetes API test
// server and a real agent process: create a cluster, import it (RBAC YAML applied from the test, kubeconfig
// pasted), issue the agent identity and save its files, apply the agent manifests, start the agent, see the
// cluster turn connected, apply a component and see its receipt arrive, delete it, find both in the audit log.
// Once in English and once in French, each against its own Kubernetes API test server. A viewer sees no
// apply or delete buttons.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { nodeEd25519 } from '../../main/wire/ed25519-node';
import { createSigner, signDocument } from '../../main/wire/envelope';
import { publicKeyToPem } from '../../main/wire/public-key-pem';
import { kubeTarget, type KubeTarget } from '../support/kube-api/target';
import { ALICE, REPO_ROOT, startManager, type ManagerUser, type RunningManager } from './support/manager';

const SHOTS = join(REPO_ROOT, 'test-results', 'screenshots');
const AGENT = join(REPO_ROOT, 'out', 'agent', 'navin-agent.cjs');
const NS = 'navin-platform';
const IMAGE = `registry.local/navin/cluster-agent@sha256:${'e'.repeat(64)}`;
const FILES = ['config.json', 'manager.pem', 'tls.crt', 'tls.key', 'ca.crt'] as const;
const VIEWER: ManagerUser = { name: 'victor', role: 'viewer', password: 'viewer-password-long-enough' };

const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });

let manager: RunningManager;
let origin: string;
let work: string;
const agents: ChildProcess[] = [];
const kubes: KubeTarget[] = [];

test.use({ viewport: { width: 1360, height: 860 }, colorScheme: 'light', acceptDownloads: true });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'navin-e2e-flow-'));
  manager = await startManager({ users: [ALICE, VIEWER], serveArgs: ['--gateway-server-name', 'localhost'] });
  origin = new URL(manager.url).origin;
  expect(manager.gateway, manager.output()).not.toBeNull();
  expect(manager.gateway!.serverName).toBe('localhost');
});

test.afterAll(async () => {
  for (const a of agents) {
    if (a.exitCode === null && a.signalCode === null) {
      a.kill('SIGTERM');
      await new Promise((r) => {
        const timer = setTimeout(() => {
          a.kill('SIGKILL');
          r(null);
        }, 5_000);
        a.once('exit', () => {
          clearTimeout(timer);
          r(null);
        });
      });
    }
  }
  await Promise.all(kubes.map((k) => k.close()));
  await manager?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Fails the test on page errors and console errors other than the refusals the flow provokes on purpose. */
function watchPage(page: Page): () => string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (
      m.type() === 'error' &&
      !/Failed to load resource: the server responded with a status of (400|401|404|409|422|502)/.test(m.text())
    ) {
      problems.push(`console: ${m.text()}`);
    }
  });
  return () => problems;
}

async function signIn(page: Page, user: ManagerUser, locale: 'en' | 'fr'): Promise<void> {
  await page.goto(origin + '/');
  await page.getByLabel(locale === 'fr' ? 'Nom' : 'Name').fill(user.name);
  await page.getByLabel(locale === 'fr' ? 'Mot de passe' : 'Password').fill(user.password);
  await page.getByRole('button', { name: locale === 'fr' ? 'Se connecter' : 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Clusters' })).toBeVisible();
}

function startAgent(dir: string, kubeconfig: string, replica: string): ChildProcess {
  const child = spawn(process.execPath, [AGENT, '--identity-dir', dir, '--kubeconfig', kubeconfig, '--replica', replica], {
    env: { PATH: process.env.PATH, HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9', NO_PROXY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-20_000)));
  child.stderr?.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-20_000)));
  (child as ChildProcess & { log: () => string }).log = () => log;
  agents.push(child);
  return child;
}

const agentLog = (a: ChildProcess): string => (a as ChildProcess & { log?: () => string }).log?.() ?? '';

interface Texts {
  lang: 'en' | 'fr';
  newCluster: string;
  create: string;
  tabs: Record<'overview' | 'import' | 'agent' | 'components' | 'commands', string>;
  connected: string;
  tokenRefused: string;
  tagOnly: string;
  inSync: string;
  chainOk: RegExp;
  succeeded: string;
}

const EN: Texts = {
  lang: 'en',
  newCluster: 'New cluster',
  create: 'Create the cluster',
  tabs: { overview: 'Overview', import: 'Import', agent: 'Agent', components: 'Components', commands: 'Commands' },
  connected: 'Connected',
  tokenRefused: 'The API server refused the token.',
  tagOnly: 'Pin the image by digest, not by tag',
  inSync: 'Matches the desired state',
  chainOk: /^Chain intact: \d+ rows verified$/,
  succeeded: 'Succeeded',
};

const FR: Texts = {
  lang: 'fr',
  newCluster: 'Nouveau cluster',
  create: 'Créer le cluster',
  tabs: { overview: 'Vue d’ensemble', import: 'Import', agent: 'Agent', components: 'Composants', commands: 'Commandes' },
  connected: 'Connecté',
  tokenRefused: 'Le serveur d’API a refusé le jeton.',
  tagOnly: 'Épinglez l’image par empreinte, pas par étiquette',
  inSync: 'Conforme à l’état souhaité',
  chainOk: /^Chaîne intacte\u00a0: [\d\u202f]+ lignes vérifiées$/,
  succeeded: 'Réussie',
};

async function clusterFlow(page: Page, x: Texts, clusterName: string): Promise<void> {
  const problems = watchPage(page);
  const kube = await kubeTarget();
  kubes.push(kube);
  const dir = join(work, clusterName);
  const identityDir = join(dir, 'identity');
  await mkdir(identityDir, { recursive: true });
  const suffix = x.lang;

  await signIn(page, ALICE, x.lang);

  await test.step('create the cluster: its page opens on the import steps', async () => {
    await expect(page.getByTestId('new-cluster')).toHaveText(x.newCluster);
    await page.getByTestId('new-cluster').click();
    const form = page.getByTestId('create-cluster-form');
    await form.locator('#cluster-name').fill(clusterName);
    await form.getByRole('button', { name: x.create }).click();
    await expect(form).toBeHidden();
    await expect(page.getByTestId('cluster-page')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(clusterName);
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
    await expect(page).toHaveURL(/#\/clusters\/[^/]+\/import$/);
    await expect(page.getByRole('tab', { name: x.tabs.import })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('import-wizard')).toBeVisible();
    await page.getByRole('tab', { name: x.tabs.overview }).click();
    await expect(page.getByTestId('inventory-missing')).toBeVisible();
    await expect(page.getByTestId('agent-presence')).toHaveText(x.lang === 'fr' ? 'Non installé' : 'Not installed');
    await expect(page).toHaveURL(/#\/clusters\/[^/]+$/);
  });

  await test.step('import: RBAC YAML, namespace validation, a refused token in words, then registration', async () => {
    await page.getByRole('tab', { name: x.tabs.import }).click();
    await expect(page).toHaveURL(/\/import$/);
    const ns = page.getByTestId('import-namespace');
    await expect(ns).toHaveValue(NS);
    await ns.fill('Navin_Platform');
    await expect(page.getByTestId('import-namespace-error')).toBeVisible();
    await expect(ns).toHaveAttribute('aria-invalid', 'true');
    await ns.fill(NS);
    await expect(page.getByTestId('import-namespace-error')).toBeHidden();
    const yaml = page.getByTestId('rbac-yaml-text');
    await expect(yaml).toContainText('navin-import');
    await expect(yaml).toContainText(`namespace: ${NS}`);
    await expect(page.getByTestId('token-command')).toContainText(`kubectl -n ${NS} create token navin-import`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('rbac-yaml-save').click()]);
    expect(download.suggestedFilename()).toBe(`navin-import-rbac-${clusterName}.yaml`);
    const saved = join(dir, download.suggestedFilename());
    await download.saveAs(saved);
    const rbacYaml = await readFile(saved, 'utf8');
    expect(rbacYaml).toBe(await yaml.textContent());
    await shot(page, `cluster-import-${suffix}`);

    // The administrator applies it to the cluster.
    await kube.apply(rbacYaml);

    // A kubeconfig with a token the cluster does not know: refused, in words, with what to do.
    await page.getByTestId('kubeconfig').fill(kube.kubeconfigFor('not-a-token-of-this-cluster'));
    await page.getByTestId('register').click();
    const refusal = page.getByTestId('registration-error');
    await expect(refusal).toHaveAttribute('data-error-code', 'token_refused');
    await expect(refusal).toContainText(x.tokenRefused);
    await shot(page, `cluster-import-refused-${suffix}`);

    const token = await kube.createToken(NS, 'navin-import');
    await page.getByTestId('kubeconfig').fill(kube.kubeconfigFor(token));
    await page.getByTestId('register').click();
    await expect(page.getByTestId('registration-result')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('registration-result')).toContainText(NS);
  });

  await test.step('overview: the inventory read with the import identity', async () => {
    await page.getByRole('tab', { name: x.tabs.overview }).click();
    await expect(page.getByTestId('nodes-table')).toBeVisible();
    expect(await page.getByTestId('node-row').count()).toBeGreaterThan(0);
    await expect(page.getByTestId('namespaces')).toContainText(NS);
    await expect(page.getByTestId('crds')).toContainText('managedcomponents.platform.navin.ai');
  });

  const gatewayUrl = `https://127.0.0.1:${manager.gateway!.port}`;
  await test.step('agent: identity issued after a confirmation, files saved once, manifests by digest', async () => {
    await page.getByRole('tab', { name: x.tabs.agent }).click();
    const url = page.getByTestId('gateway-url');
    await url.fill('http://127.0.0.1:1');
    await expect(page.getByTestId('gateway-url-error')).toBeVisible();
    await url.fill(gatewayUrl);
    await expect(page.getByTestId('gateway-url-error')).toBeHidden();
    await page.locator('details.advanced > summary').click();
    await page.getByTestId('server-name').fill('localhost');
    await page.getByTestId('issue-identity').click();
    const confirm = page.getByTestId('identity-confirm');
    await expect(confirm).toBeVisible();
    await expect(page.getByTestId('identity-confirm-issue')).toBeFocused();
    await page.getByTestId('identity-confirm-issue').click();
    const files = page.getByTestId('identity-files');
    await expect(files).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('secret-command')).toContainText(
      'kubectl -n navin-platform create secret generic navin-cluster-agent-identity',
    );
    for (const f of FILES) {
      const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(`save-${f}`).click()]);
      expect(dl.suggestedFilename()).toBe(f);
      await dl.saveAs(join(identityDir, f));
      await expect(page.getByTestId(`identity-file-${f}`)).toHaveAttribute('data-saved', 'true');
    }
    expect(await readFile(join(identityDir, 'tls.key'), 'utf8')).toContain('PRIVATE KEY');
    await shot(page, `cluster-agent-identity-${suffix}`);

    const image = page.getByTestId('agent-image');
    await image.fill('registry.local/navin/cluster-agent:1.0');
    await expect(page.getByTestId('agent-image-error')).toContainText(x.tagOnly);
    await image.fill(IMAGE);
    await page.getByTestId('show-manifests').click();
    const manifests = page.getByTestId('agent-manifests-text');
    await expect(manifests).toContainText(IMAGE);
    await kube.apply((await manifests.textContent())!);
    await shot(page, `cluster-agent-manifests-${suffix}`);

    // Saved: the key leaves the console's memory.
    await page.getByTestId('forget-identity').click();
    await expect(files).toBeHidden();
  });

  await test.step('the agent starts and the cluster turns connected on screen, without a reload', async () => {
    const agentKubeconfig = join(dir, 'agent.kubeconfig');
    await writeFile(agentKubeconfig, kube.kubeconfigFor(await kube.createToken(NS, 'navin-cluster-agent')), { mode: 0o600 });
    const agent = startAgent(identityDir, agentKubeconfig, 'agent-a');
    await page.getByRole('tab', { name: x.tabs.overview }).click();
    try {
      await expect(page.getByTestId('agent-presence')).toHaveText(x.connected, { timeout: 45_000 });
    } catch (e) {
      throw new Error(`${String(e)}\nagent log:\n${agentLog(agent)}\nmanager:\n${manager.output().slice(-4000)}`);
    }
    await expect(page.getByTestId('agent-panel')).toHaveAttribute('data-presence', 'connected');
    await expect(page.getByTestId('agent-leader')).toContainText('agent-a');
    await expect(page.locator('.cluster-title [data-state]')).toHaveAttribute('data-state', 'connected');
    await shot(page, `cluster-overview-${suffix}`);
  });

  await test.step('apply a component from the form and see its receipt arrive', async () => {
    await page.getByRole('tab', { name: x.tabs.components }).click();
    await expect(page.getByTestId('components-empty')).toBeVisible();
    await page.getByTestId('new-component').click();
    const form = page.getByTestId('component-form');
    await form.getByTestId('component-name').fill('opa-main');
    await form.getByTestId('component-kind').selectOption('opa');
    // The version is required: refused here, before anything is sent.
    await form.getByTestId('apply-submit').click();
    await expect(form.getByTestId('component-version-error')).toBeVisible();
    await form.getByTestId('component-version').fill('0.70.0');
    await form.getByTestId('component-replicas').fill('2');
    await form.getByTestId('component-cpu').fill('250m');
    await form.getByTestId('component-memory').fill('128Mi');
    await shot(page, `cluster-component-form-${suffix}`);
    await form.getByTestId('apply-submit').click();
    const tracker = page.getByTestId('apply-command');
    await expect(tracker).toBeVisible();
    await expect(tracker).toHaveAttribute('data-state', 'succeeded', { timeout: 45_000 });
    await expect(tracker.getByTestId('receipt').first()).toContainText('agent-a');
    const row = page.locator('[data-testid="component-row"][data-component-name="opa-main"]');
    await expect(row).toContainText('0.70.0');
    // The agent reports what it observes after the change: observed beside desired, in sync.
    await expect(row).toHaveAttribute('data-drift', 'in_sync', { timeout: 30_000 });
    await expect(row.getByTestId('observed')).toContainText(x.inSync);
    await expect(row.getByTestId('observed')).toContainText('0.70.0');
    await shot(page, `cluster-components-${suffix}`);
  });

  await test.step('its component sheet: what the agent found in the cluster, and why the other tabs are empty', async () => {
    const row = page.locator('[data-testid="component-row"][data-component-name="opa-main"]');
    await row.getByTestId('component-sheet-link').click();
    await expect(page).toHaveURL(/#\/clusters\/[^/]+\/services\/opa-main$/);
    await expect(page.getByTestId('service-sheet')).toHaveAttribute('data-tab', 'overview');
    await expect(page.getByTestId('overview-version')).toContainText('0.70.0');
    await page.getByTestId('tab-logs').click();
    await expect(page.getByTestId('sheet-unobserved-reason')).toHaveAttribute('data-reason', 'kubernetes_no_logs');
    await shot(page, `cluster-component-sheet-${suffix}`);
    await page.getByTestId('sheet-back').click();
    await expect(row).toBeVisible();
  });

  await test.step('the YAML editor checks a manifest before sending it', async () => {
    await page.getByTestId('new-component').click();
    await page.getByTestId('apply-mode').getByRole('radio').nth(1).check();
    const doc = page.getByTestId('component-document');
    await doc.fill(
      'apiVersion: platform.navin.ai/v1alpha1\nkind: ManagedComponent\nmetadata:\n  name: nats-bus\nspec:\n  component: nats\n  version: "2.10"\n  replicas: 100\n',
    );
    await expect(doc).toHaveValue(/replicas: 100/);
    await page.getByTestId('editor-check').click();
    await expect(page.getByTestId('component-editor-error')).toContainText('spec.replicas');
    await doc.fill('kind: ManagedComponent\nmetadata: {name: nats-bus}\nspec: {component: nats, version: "2.10", replicas: [');
    await page.getByTestId('editor-check').click();
    await expect(page.getByTestId('component-editor-error')).toBeVisible();
    await shot(page, `cluster-component-editor-${suffix}`);
    await page.getByTestId('apply-component').press('Escape');
    await expect(page.getByTestId('apply-component')).toBeHidden();
  });

  await test.step('delete it after a confirmation naming component, cluster and namespace', async () => {
    const row = page.locator('[data-testid="component-row"][data-component-name="opa-main"]');
    await row.getByTestId('delete-component').click();
    const text = page.getByTestId('delete-confirm-text');
    await expect(text).toContainText('opa-main');
    await expect(text).toContainText(clusterName);
    await expect(text).toContainText(NS);
    await expect(page.getByTestId('delete-confirm-button')).toBeFocused();
    await shot(page, `cluster-component-delete-${suffix}`);
    await page.getByTestId('delete-confirm-button').click();
    const tracker = page.getByTestId('delete-command');
    await expect(tracker).toHaveAttribute('data-state', 'succeeded', { timeout: 45_000 });
    await expect(row).toBeHidden();
    await expect(page.getByTestId('components-empty')).toBeVisible();
  });

  await test.step('the cluster commands tab and the commands screen list both, with receipts', async () => {
    await page.getByRole('tab', { name: x.tabs.commands }).click();
    const rows = page.getByTestId('cluster-commands').getByTestId('command-row');
    await expect(rows.filter({ has: page.locator('[data-op="managedcomponent.apply"]') })).toHaveCount(1);
    await expect(
      page.getByTestId('cluster-commands').locator('[data-testid="command-row"][data-op="managedcomponent.delete"]'),
    ).toHaveAttribute('data-state', 'succeeded');
    await page.getByTestId('nav-commands').click();
    await expect(page.getByRole('heading', { level: 1, name: x.tabs.commands })).toBeVisible();
    const apply = page.locator('[data-testid="command-row"][data-op="managedcomponent.apply"]').filter({ hasText: clusterName });
    await expect(apply).toHaveCount(1);
    await expect(apply.getByTestId('command-state')).toHaveText(x.succeeded);
    await apply.getByTestId('command-toggle').click();
    await expect(page.getByTestId('command-details').getByTestId('receipt').first()).toContainText('agent-a');
    await shot(page, `commands-${suffix}`);
  });

  await test.step('the audit log has both, and its chain verifies', async () => {
    await page.getByTestId('nav-audit').click();
    await expect(page.getByTestId('chain-verdict')).toHaveAttribute('data-ok', 'true');
    await expect(page.getByTestId('chain-verdict').locator('.chain-title')).toHaveText(x.chainOk);
    await page.getByTestId('audit-cluster').selectOption({ label: clusterName });
    await page.getByTestId('audit-action').fill('command.managedcomponent.apply');
    await page.getByTestId('audit-search').click();
    await expect(page.getByTestId('audit-row')).toHaveCount(1);
    await expect(page.getByTestId('audit-row').first()).toContainText('opa-main');
    await page.getByTestId('audit-action').fill('command.managedcomponent.delete');
    await page.getByTestId('audit-search').click();
    await expect(page.getByTestId('audit-row')).toHaveCount(1);
    await page.getByTestId('audit-row').first().locator('.row-link').click();
    await expect(page.getByTestId('audit-details')).toContainText('alice');
    await shot(page, `audit-${suffix}`);
  });

  expect(problems()).toEqual([]);
}

test('the whole cluster path in English', async ({ browser }) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: 'en-GB', acceptDownloads: true });
  const page = await context.newPage();
  try {
    await clusterFlow(page, EN, 'edge-paris-1');
  } finally {
    await context.close();
  }
});

test('the whole cluster path in French', async ({ browser }) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: 'fr-FR', acceptDownloads: true });
  const page = await context.newPage();
  try {
    await clusterFlow(page, FR, 'edge-lyon-2');
  } finally {
    await context.close();
  }
});

test('the command palette is keyboard-only: jump to a cluster, a screen, an action; Escape closes', async ({ browser }) => {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: 'en-GB' });
  const page = await context.newPage();
  try {
    await signIn(page, ALICE, 'en');
    const opener = page.getByTestId('cluster-filter');
    await opener.focus();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await expect(palette).toBeVisible();
    await expect(page.getByTestId('palette-input')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(palette).toBeHidden();
    await expect(opener).toBeFocused();

    await page.keyboard.press('Control+k');
    await page.keyboard.type('paris');
    await expect(page.getByTestId('palette-option').first()).toHaveAttribute('data-entry', /^cluster:/);
    await shot(page, 'palette-en');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('cluster-page')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('edge-paris-1');

    await page.keyboard.press('Control+k');
    await page.keyboard.type('audit');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    const first = await page.getByTestId('palette-option').first().getAttribute('data-entry');
    await page.keyboard.press('Enter');
    if (first === 'screen:audit') await expect(page.getByRole('heading', { level: 1, name: 'Audit' })).toBeVisible();
    else await expect(page.getByTestId('screen-audit')).toBeVisible();

    // An action: the theme switches, from the keyboard only.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('dark');
    await page.keyboard.press('Enter');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.keyboard.press('Control+k');
    await page.keyboard.type('edge-lyon');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('nodes-panel')).toBeVisible();
    await shot(page, 'cluster-overview-dark-en');
    await page.getByRole('tab', { name: 'Components' }).click();
    await shot(page, 'cluster-components-dark-en');
    await page.keyboard.press('Control+k');
    await page.keyboard.type('light');
    await page.keyboard.press('Enter');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');

    await page.keyboard.press('Control+k');
    await page.keyboard.type('new cluster');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('create-cluster-form')).toBeVisible();
    await expect(page.locator('#cluster-name')).toBeFocused();
  } finally {
    await context.close();
  }
});

test('a viewer sees no apply, delete or import controls', async ({ browser }) => {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: 'en-GB' });
  const page = await context.newPage();
  try {
    await signIn(page, VIEWER, 'en');
    await expect(page.getByTestId('new-cluster')).toBeDisabled();
    await page.locator('[data-testid="cluster-row"][data-cluster-name="edge-paris-1"] .row-link').click();
    await page.getByTestId('open-cluster-page').click();
    await expect(page.getByTestId('cluster-page')).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Import' })).toHaveCount(0);
    await expect(page.getByRole('tab', { name: 'Agent' })).toHaveCount(0);
    await expect(page.getByTestId('inventory-refresh')).toHaveCount(0);
    await page.getByRole('tab', { name: 'Components' }).click();
    await expect(page.getByTestId('components-tab')).toBeVisible();
    await expect(page.getByTestId('new-component')).toHaveCount(0);
    await expect(page.getByTestId('delete-component')).toHaveCount(0);
    await expect(page.getByTestId('edit-component')).toHaveCount(0);
    await page.getByTestId('nav-settings').click();
    await expect(page.getByRole('tab', { name: 'Users' })).toHaveCount(0);
    await shot(page, 'viewer-settings-en');
  } finally {
    await context.close();
  }
});

test('an administrator adds an account with a role', async ({ browser }) => {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: 'en-GB' });
  const page = await context.newPage();
  try {
    await signIn(page, ALICE, 'en');
    await page.goto(origin + '/#/settings/users');
    await expect(page.getByTestId('users-table')).toBeVisible();
    await expect(page.locator('[data-testid="user-row"][data-user-name="victor"]')).toContainText('Viewer');
    await page.getByTestId('add-user').click();
    await page.getByTestId('user-name').fill('olga');
    await page.getByTestId('user-role').selectOption('operator');
    await page.getByTestId('user-password').fill('short');
    await page.getByTestId('user-confirm').fill('short');
    await page.getByTestId('add-user-submit').click();
    await expect(page.getByTestId('user-problem')).toBeVisible();
    await page.getByTestId('user-password').fill('a-long-enough-password');
    await page.getByTestId('user-confirm').fill('a-long-enough-password');
    await page.getByTestId('add-user-submit').click();
    await expect(page.locator('[data-testid="user-row"][data-user-name="olga"]')).toContainText('Operator');
    await shot(page, 'settings-users-en');
  } finally {
    await context.close();
  }
});

test('reports: the screen degrades clearly without the API, and verifies a report offline', async ({ browser }) => {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: 'en-GB' });
  const page = await context.newPage();
  try {
    await signIn(page, ALICE, 'en');
    await page.getByTestId('nav-reports').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
    const [pem] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-manager-pem').click()]);
    expect(pem.suggestedFilename()).toBe('manager.pem');
    const pemPath = join(work, 'manager.pem');
    await pem.saveAs(pemPath);
    expect(await readFile(pemPath, 'utf8')).toContain('BEGIN PUBLIC KEY');
    // Either the reports API answers, or the screen says it is not there yet.
    await expect(page.getByTestId('reports-unavailable').or(page.getByTestId('reports-list'))).toBeVisible();
    if (await page.getByTestId('reports-list').isVisible()) {
      // The reports API is there: run acceptance on the connected cluster, then check its report offline.
      await page.getByTestId('run-cluster').selectOption({ label: 'edge-paris-1' });
      await page.getByTestId('run-submit').click();
      await expect(page.getByTestId('run-result').or(page.getByTestId('run-error'))).toBeVisible({ timeout: 60_000 });
      await expect(page.getByTestId('run-result')).toBeVisible();
      const row = page.getByTestId('report-row').first();
      await expect(row).toContainText('edge-paris-1');
      const [json] = await Promise.all([page.waitForEvent('download'), row.getByTestId('report-json').click()]);
      const signedPath = join(work, json.suggestedFilename());
      await json.saveAs(signedPath);
      await expect(row.getByTestId('report-html-fr')).toHaveAttribute('href', /\/html\?lang=fr$/);
      await page.getByTestId('report-file').setInputFiles(signedPath);
      await page.getByTestId('use-manager-key').click();
      await expect(page.getByTestId('report-valid')).toBeVisible();
      await expect(page.getByTestId('verified-fingerprint')).toHaveText(/^[0-9a-f]{64}$/);
      await shot(page, 'reports-run-en');
    }

    // A file that is not a signed report: refused offline with its code.
    const bogus = join(work, 'not-a-report.json');
    await writeFile(bogus, JSON.stringify({ payload: { type: 'report' }, signature: 'AAAA' }));
    await page.getByTestId('report-file').setInputFiles(bogus);
    await page.getByTestId('pem-file').setInputFiles(pemPath);
    await expect(page.getByTestId('report-invalid')).toBeVisible();
    await expect(page.getByTestId('pem-name')).toContainText('manager.pem');

    // A report signed by another key (an auditor's copy): valid against that key's PEM, offline.
    const signer = createSigner(nodeEd25519, new Uint8Array(randomBytes(32)));
    const report = signDocument(
      {
        type: 'report',
        report_id: 'r-0001',
        cluster_id: 'c-0001',
        cluster_name: 'edge-paris-1',
        created_at: '2026-03-14T09:26:53Z',
        verdict: 'FAIL',
        lines: [
          {
            id: 'agent.connected',
            title: 'The agent is connected',
            status: 'PASS',
            evidence: { replicas: 2 },
            ran_at: '2026-03-14T09:26:50Z',
          },
          {
            id: 'opa.smoke',
            title: 'OPA answers a policy query',
            status: 'FAIL',
            evidence: { error: 'timeout' },
            ran_at: '2026-03-14T09:26:52Z',
          },
        ],
      },
      signer,
    );
    const reportPath = join(work, 'report.json');
    const otherPem = join(work, 'auditor.pem');
    await writeFile(reportPath, JSON.stringify(report, null, 2));
    await writeFile(otherPem, publicKeyToPem(signer.publicKey));
    await page.getByTestId('report-file').setInputFiles(reportPath);
    // Against this manager's key: not signed by it.
    await page.getByTestId('use-manager-key').click();
    await expect(page.getByTestId('report-invalid')).toHaveAttribute('data-code', 'key_unknown');
    await page.getByTestId('pem-file').setInputFiles(otherPem);
    const valid = page.getByTestId('report-valid');
    await expect(valid).toBeVisible();
    await expect(valid.getByTestId('verified-key-id')).toHaveText(signer.keyId);
    await expect(valid.locator('.report-line')).toHaveCount(2);
    await shot(page, 'reports-en');
    // One changed byte: the signature no longer matches.
    await writeFile(reportPath, JSON.stringify({ ...report, payload: { ...report.payload, verdict: 'PASS' } }));
    await page.getByTestId('report-file').setInputFiles(reportPath);
    await expect(page.getByTestId('report-invalid')).toHaveAttribute('data-code', 'signature_invalid');
  } finally {
    await context.close();
  }
});
