// The Hosts tab in Chromium against the headless manager and a real node agent process: a cluster of kind hosts
// created from the form opens on its Hosts tab, without the Kubernetes tabs; a host added there is pending; its node agent
// identity is issued with the install commands and its files; the agent started with those files turns the row
// connected with the facts it reported.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ALICE, REPO_ROOT, startManager, type RunningManager } from './support/manager';

const NODE_AGENT = join(REPO_ROOT, 'out', 'agent', 'navin-node-agent.cjs');
const SHOTS = join(REPO_ROOT, 'test-results', 'screenshots');
const FILES = ['config.json', 'manager.pem', 'tls.crt', 'tls.key', 'ca.crt'] as const;

let manager: RunningManager;
let work: string;
let agent: ChildProcess | undefined;
let agentLog = '';

test.use({ viewport: { width: 1360, height: 900 } });

test.beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'navin-e2e-hosts-'));
  manager = await startManager({ users: [ALICE] });
  expect(manager.gateway, manager.output()).not.toBeNull();
});

test.afterAll(async () => {
  if (agent && agent.exitCode === null && agent.signalCode === null) {
    const exited = new Promise((r) => agent!.once('exit', r));
    agent.kill('SIGKILL');
    await exited;
  }
  await manager?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

async function signIn(page: Page): Promise<void> {
  await page.goto(new URL(manager.url).origin + '/');
  await page.getByLabel('Name').fill(ALICE.name);
  await page.getByLabel('Password').fill(ALICE.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Clusters' })).toBeVisible();
}

test('a hosts cluster: its Hosts tab adds a host, issues its node agent identity, and shows it connected with its facts', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await signIn(page);

  await page.getByTestId('new-cluster').click();
  const form = page.getByTestId('create-cluster-form');
  await form.locator('#cluster-name').fill('edge-hosts');
  await form.getByTestId('kind-hosts').check();
  await form.getByRole('button', { name: 'Create the cluster' }).click();
  await expect(form).toBeHidden();
  // The new cluster's page opens on its Hosts tab.
  await expect(page.getByTestId('cluster-page')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('edge-hosts');
  // A hosts cluster has no Kubernetes import, cluster agent or components.
  await expect(page.getByRole('tab', { name: 'Import' })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Hosts' })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/#\/clusters\/[^/]+\/hosts$/);

  const tab = page.getByTestId('cluster-hosts');
  await expect(tab.getByTestId('hosts-empty')).toBeVisible();
  await tab.getByTestId('host-name').fill('node-1');
  await tab.getByTestId('host-address').fill('127.0.0.1');
  await tab.getByRole('button', { name: 'Add the host' }).click();
  const row = tab.getByTestId('host-node-1');
  await expect(row).toBeVisible();
  await expect(row).toContainText('Pending');
  await expect(row).toContainText('No facts reported yet');

  await row.getByRole('button', { name: 'Agent identity…' }).click();
  const issue = row.getByTestId('host-identity-form-node-1');
  await issue.getByRole('textbox').fill(`https://127.0.0.1:${manager.gateway!.port}`);
  await issue.getByRole('button', { name: 'Issue the identity' }).click();
  const identity = tab.getByTestId('host-identity');
  await expect(identity).toBeVisible({ timeout: 30_000 });
  await expect(identity.getByTestId('host-install-commands-text')).toContainText('apt-get install ./navin-node-agent_');
  await expect(identity.getByTestId('host-install-commands-text')).toContainText('systemctl enable --now navin-node-agent.service');

  // The administrator saves the five files as the console shows them and starts the agent with them.
  const dir = join(work, 'node-1');
  const identityDir = join(dir, 'identity');
  await mkdir(identityDir, { recursive: true, mode: 0o700 });
  for (const f of FILES)
    await writeFile(join(identityDir, f), (await identity.getByTestId(`host-file-${f}-text`).textContent())!, { mode: 0o600 });
  for (const d of ['root', 'state', 'inbox']) await mkdir(join(dir, d), { recursive: true });
  agent = spawn(
    process.execPath,
    [
      NODE_AGENT,
      '--identity-dir',
      identityDir,
      '--state-dir',
      join(dir, 'state'),
      '--inbox',
      join(dir, 'inbox'),
      '--prefix',
      join(dir, 'root'),
    ],
    { env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  agent.stdout!.on('data', (c: Buffer) => (agentLog = (agentLog + c.toString()).slice(-20_000)));
  agent.stderr!.on('data', (c: Buffer) => (agentLog = (agentLog + c.toString()).slice(-20_000)));
  await identity.getByRole('button', { name: 'I saved the files' }).click();
  await expect(identity).toBeHidden();

  await expect(row, agentLog).toContainText('Connected', { timeout: 60_000 });
  const facts = row.getByTestId('host-facts');
  await expect(facts, agentLog).toBeVisible({ timeout: 60_000 });
  await expect(facts).toContainText('Architecture');
  await expect(facts).toContainText('Memory');
  await expect(row).toContainText(/seen/);
  // The cluster's state is its hosts': the page's header follows.
  await expect(page.getByRole('heading', { level: 1 }).locator('.badge-state')).toHaveAttribute('data-state', 'connected');
  await page.screenshot({ path: join(SHOTS, 'cluster-hosts-en.png'), fullPage: true });
  expect(problems).toEqual([]);
});
