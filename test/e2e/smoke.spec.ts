// End-to-end smoke of the console in Chromium against the real headless manager: sign-in, clusters (create,
// list, inline and server validation, filter, sort, virtualised list), French, themes, ticket link, sign-out.
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ALICE, REPO_ROOT, startManager, type RunningManager } from './support/manager';

const SHOTS = join(REPO_ROOT, 'test-results', 'screenshots');
const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });

let manager: RunningManager;
let origin: string;

test.use({ locale: 'en-GB', viewport: { width: 1360, height: 820 }, colorScheme: 'light' });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  manager = await startManager({ users: [ALICE] });
  origin = new URL(manager.url).origin;
});

test.afterAll(async () => {
  await manager?.stop();
});

/** Fails the test on page errors, console errors and Content-Security-Policy violations. */
async function watchPage(page: Page): Promise<() => string[]> {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // A refused login or a 409 is an expected failed request; the browser logs those as errors.
    if (m.type() === 'error' && !/Failed to load resource: the server responded with a status of (401|409|423)/.test(m.text())) {
      problems.push(`console: ${m.text()}`);
    }
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const w = window as unknown as { __csp?: string[] };
      (w.__csp ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return () => problems;
}

async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
}

async function signIn(page: Page, password = ALICE.password): Promise<void> {
  await page.getByLabel('Name').fill(ALICE.name);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const row = (page: Page, name: string) => page.locator(`[data-testid="cluster-row"][data-cluster-name="${name}"]`);

/** A cluster just created: its page opens on its import steps; back to the list. */
async function openedThenBack(page: Page, name: string): Promise<void> {
  await expect(page.getByTestId('cluster-page')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(name);
  await expect(page).toHaveURL(/#\/clusters\/[^/]+\/import$/);
  await page.getByTestId('back-to-clusters').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Clusters' })).toBeVisible();
}

test('sign in, create and validate clusters, switch to French', async ({ page }) => {
  const problems = await watchPage(page);

  await test.step('login screen', async () => {
    await page.goto(origin + '/');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByLabel('Name')).toBeFocused();
    await shot(page, 'smoke-login-en');
  });

  await test.step('a wrong password shows invalid_credentials and what to do', async () => {
    await signIn(page, 'not-the-password');
    const error = page.getByTestId('login-error');
    await expect(error).toBeVisible();
    await expect(error.getByTestId('error-code')).toHaveText('invalid_credentials');
    await expect(error).toContainText('Wrong name or password.');
    await expect(page.getByLabel('Password')).toHaveValue('');
    await shot(page, 'smoke-login-error-en');
  });

  await test.step('sign in as alice', async () => {
    await signIn(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Clusters' })).toBeVisible();
    await expect(page.getByTestId('current-user')).toContainText('alice');
    await expect(page.getByTestId('current-role')).toHaveText(/Administrator/);
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
    await expect(page.getByTestId('clusters-empty')).toBeVisible();
    await expect(page.getByTestId('live-state')).toHaveAttribute('data-live', 'open');
  });

  await test.step('create edge-paris-1: its page opens, and the list has it', async () => {
    await page.getByTestId('new-cluster').click();
    const form = page.getByTestId('create-cluster-form');
    await expect(form.getByLabel(/^Name/)).toBeFocused();
    await form.getByLabel(/^Name/).fill('edge-paris-1');
    await form.getByLabel(/^Description/).fill('Paris edge site, rack B4');
    await form.getByRole('button', { name: 'Create the cluster' }).click();
    await expect(form).toBeHidden();
    await openedThenBack(page, 'edge-paris-1');
    const r = row(page, 'edge-paris-1');
    await expect(r).toBeVisible();
    await expect(r).toContainText('Paris edge site, rack B4');
    await expect(r.getByRole('cell').nth(1)).toContainText(/Pending|Connected|Offline|Revoked/);
    await expect(page.getByTestId('clusters-count')).toHaveText('1 cluster');
  });

  await test.step('an invalid name is refused as you type, before any request', async () => {
    await page.getByTestId('new-cluster').click();
    const form = page.getByTestId('create-cluster-form');
    const name = form.getByLabel(/^Name/);
    await name.fill('Bad_Name');
    const error = form.getByTestId('cluster-name-error');
    await expect(error).toHaveText('Use only lowercase letters, digits, “-” and “.”.');
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    let posted = false;
    page.on('request', (req) => {
      if (req.method() === 'POST' && req.url().endsWith('/api/v1/clusters')) posted = true;
    });
    await form.getByRole('button', { name: 'Create the cluster' }).click();
    await expect(error).toBeVisible();
    await expect(name).toBeFocused();
    expect(posted).toBe(false);
    await name.fill('-edge');
    await expect(error).toHaveText('Start and end with a lowercase letter or a digit.');
    await name.fill('edge');
    await expect(error).toBeHidden();
    await shot(page, 'smoke-create-invalid-en');
  });

  await test.step('the server refusal of a taken name is shown with its code', async () => {
    const form = page.getByTestId('create-cluster-form');
    await form.getByLabel(/^Name/).fill('edge-paris-1');
    await form.getByRole('button', { name: 'Create the cluster' }).click();
    const error = form.getByTestId('create-cluster-error');
    await expect(error.getByTestId('error-code')).toHaveText('name_taken');
    await expect(error).toContainText('HTTP 409');
    await expect(form.getByTestId('cluster-name-error')).toHaveText('A cluster named “edge-paris-1” already exists.');
    await shot(page, 'smoke-create-taken-en');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await expect(form).toBeHidden();
  });

  await test.step('more clusters, filter as you type, sort by column', async () => {
    for (const name of ['edge-lyon-2', 'core-eu-west.1']) {
      await page.getByTestId('new-cluster').click();
      await page.getByTestId('create-cluster-form').getByLabel(/^Name/).fill(name);
      await page.getByTestId('create-cluster-form').getByRole('button', { name: 'Create the cluster' }).click();
      await openedThenBack(page, name);
      await expect(row(page, name)).toBeVisible();
    }
    const names = () => page.getByTestId('cluster-row').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-cluster-name')));
    await expect.poll(names).toEqual(['core-eu-west.1', 'edge-lyon-2', 'edge-paris-1']);
    await page.getByTestId('sort-name').click();
    await expect(page.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'descending');
    await expect.poll(names).toEqual(['edge-paris-1', 'edge-lyon-2', 'core-eu-west.1']);
    await page.getByTestId('sort-created').click();
    await expect(page.getByRole('columnheader', { name: /Created/ })).toHaveAttribute('aria-sort', 'ascending');
    await expect.poll(names).toEqual(['edge-paris-1', 'edge-lyon-2', 'core-eu-west.1']);
    await page.getByTestId('sort-name').click();

    const filter = page.getByLabel('Filter clusters');
    await filter.fill('edge');
    await expect.poll(names).toEqual(['edge-lyon-2', 'edge-paris-1']);
    await filter.fill('rack b4');
    await expect.poll(names).toEqual(['edge-paris-1']);
    await expect(page.getByTestId('clusters-shown')).toHaveText('1 of 3 shown');
    await filter.fill('nowhere');
    await expect(page.getByTestId('clusters-no-match')).toContainText('No cluster matches “nowhere”');
    await filter.press('Escape');
    await expect(filter).toHaveValue('');
    await expect.poll(names).toHaveLength(3);
  });

  await test.step('rows are keyboard navigable and open their details', async () => {
    const first = row(page, 'core-eu-west.1').getByRole('button', { name: 'core-eu-west.1' });
    await first.focus();
    await page.keyboard.press('ArrowDown');
    await expect(row(page, 'edge-lyon-2').getByRole('button', { name: 'edge-lyon-2' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const details = page.getByTestId('cluster-details');
    await expect(details).toBeVisible();
    await expect(details.getByRole('heading')).toHaveText('Cluster edge-paris-1');
    await expect(details).toContainText('Paris edge site, rack B4');
    await shot(page, 'smoke-clusters-en');
    await details.getByRole('button', { name: 'Close' }).click();
    await expect(details).toBeHidden();
  });

  await test.step('switch to French: labels, errors and numbers in French', async () => {
    await page.getByTestId('nav-settings').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await page.getByTestId('language-switch').getByRole('radio', { name: 'Français' }).check();
    await expect(page.getByRole('heading', { level: 1, name: 'Paramètres' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    const nav = page.getByRole('navigation', { name: 'Navigation principale' });
    for (const label of ['Clusters', 'Composants', 'Commandes', 'Approbations', 'Vérifications', 'Rapports', 'Audit', 'Paramètres']) {
      await expect(nav.getByRole('link', { name: label })).toBeVisible();
    }
    await expect(page.getByRole('button', { name: 'Se déconnecter' })).toBeVisible();
    await expect(page.getByTestId('current-role')).toHaveText(/Administrateur/);
    await expect(page.getByTestId('about-version')).not.toHaveText('Non disponible');
    await shot(page, 'smoke-settings-fr');

    await nav.getByRole('link', { name: 'Clusters' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Clusters' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Nouveau cluster' })).toBeVisible();
    for (const col of ['Nom', 'État', 'Locataire', 'Créé le']) {
      await expect(page.getByRole('columnheader', { name: col })).toBeVisible();
    }
    await expect(page.getByTestId('clusters-count')).toHaveText('3 clusters');
    await expect(page.getByLabel('Filtrer les clusters')).toHaveAttribute('placeholder', 'Filtrer par nom, état, locataire…');
    await expect(row(page, 'edge-paris-1')).toContainText(/En attente|Connecté|Hors ligne|Révoqué/);
    await page.getByRole('button', { name: 'Nouveau cluster' }).click();
    const form = page.getByTestId('create-cluster-form');
    await form.getByLabel(/^Nom/).fill('Bad_Name');
    await expect(form.getByTestId('cluster-name-error')).toHaveText(
      'Utilisez uniquement des lettres minuscules, des chiffres, «\u202f-\u202f» et «\u202f.\u202f».',
    );
    await shot(page, 'smoke-clusters-fr');
    await form.getByRole('button', { name: 'Annuler' }).click();
  });

  await test.step('the choice survives a reload, and so does the session', async () => {
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Clusters' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Nouveau cluster' })).toBeVisible();
    await expect(row(page, 'edge-paris-1')).toBeVisible();
  });

  await test.step('screens not built yet say what will be there, in French', async () => {
    await page.getByRole('link', { name: 'Composants' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Composants' })).toBeVisible();
    await expect(page.getByTestId('placeholder')).toContainText('Pas encore disponible');
    await expect(page.getByTestId('placeholder')).toContainText('fiche composant à douze onglets');
    await expect(page).toHaveURL(/#\/components$/);
    await shot(page, 'smoke-components-fr');
  });

  await test.step('dark theme', async () => {
    await page.getByRole('link', { name: 'Paramètres' }).click();
    await page.getByTestId('theme-switch').getByRole('radio', { name: 'Sombre' }).check();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.getByRole('link', { name: 'Clusters' }).click();
    await row(page, 'edge-paris-1').click();
    await expect(page.getByTestId('cluster-details')).toBeVisible();
    await shot(page, 'smoke-clusters-dark-fr');
    await page.getByRole('link', { name: 'Paramètres' }).click();
    await page.getByTestId('theme-switch').getByRole('radio', { name: 'Système' }).check();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await page.getByTestId('language-switch').getByRole('radio', { name: 'English' }).check();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  });

  await test.step('sign out', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByTestId('login-notice')).toHaveText('You are signed out.');
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  });

  expect(await cspViolations(page)).toEqual([]);
  expect(problems()).toEqual([]);
});

test('the skip link and the navigation work from the keyboard', async ({ page }) => {
  await page.goto(origin + '/');
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Clusters' })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main')).toBeFocused();
  await page.getByTestId('nav-audit').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Audit' })).toBeFocused();
  await expect(page.getByTestId('nav-audit')).toHaveAttribute('aria-current', 'page');
});

test('the one-time login link signs in, leaves the address bar, and works once', async ({ browser }) => {
  test.skip(!manager.loginLink, 'serve printed no login link');
  const link = manager.loginLink!;
  const first = await browser.newContext({ ignoreHTTPSErrors: true, locale: 'en-GB' });
  const page = await first.newPage();
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Clusters' })).toBeVisible();
  expect(page.url()).not.toContain('ticket=');
  await expect(page.getByTestId('current-user')).toContainText('alice');
  await first.close();

  const second = await browser.newContext({ ignoreHTTPSErrors: true, locale: 'en-GB' });
  const again = await second.newPage();
  await again.goto(link);
  await expect(again.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(again.getByTestId('login-error').getByTestId('error-code')).toHaveText('ticket_invalid');
  expect(again.url()).not.toContain('ticket=');
  await shot(again, 'smoke-ticket-used-en');
  await second.close();
});

test('thousands of clusters stay virtualised and filterable', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto(origin + '/');
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Clusters' })).toBeVisible();

  const total = 2000;
  const { csrf_token } = (await (await page.request.get(`${origin}/api/v1/session`)).json()) as { csrf_token: string };
  for (let start = 0; start < total; start += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, total - start) }, (_, i) =>
        page.request
          .post(`${origin}/api/v1/clusters`, {
            headers: { 'X-CSRF-Token': csrf_token },
            data: { name: `bulk-${String(start + i).padStart(4, '0')}`, description: `bulk row ${start + i}` },
          })
          .then((r) => expect(r.status()).toBe(201)),
      ),
    );
  }

  // The list follows the pushed cluster.changed events, no reload needed.
  await expect(page.getByTestId('clusters-count')).toHaveText(/^2,00\d clusters$/, { timeout: 30_000 });
  const rendered = await page.getByTestId('cluster-row').count();
  expect(rendered).toBeGreaterThan(5);
  expect(rendered).toBeLessThan(80);

  await page.getByLabel('Filter clusters').fill('bulk-1999');
  await expect(page.getByTestId('cluster-row')).toHaveCount(1);
  await page.getByLabel('Filter clusters').fill('');

  // Rows keep arriving from the pushed events on a loaded machine: press End again until the last row shows.
  await expect(async () => {
    await page.getByTestId('cluster-row').first().getByRole('button').focus();
    await page.keyboard.press('End');
    await expect(row(page, 'edge-paris-1')).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(row(page, 'edge-paris-1').getByRole('button')).toBeFocused();
  await page.keyboard.press('Home');
  await expect(row(page, 'bulk-0000')).toBeVisible();
  await shot(page, 'smoke-clusters-many-en');
});

test('first run: the setup link creates the first administrator', async ({ browser }) => {
  const fresh = await startManager({ users: [] });
  try {
    expect(fresh.setupLink, fresh.output()).not.toBeNull();
    const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: 'fr-FR' });
    const page = await context.newPage();
    const problems = await watchPage(page);

    // Without the link, the login screen says how to get one.
    await page.goto(new URL(fresh.url).origin + '/');
    await expect(page.getByTestId('setup-needed')).toContainText('navin-manager serve');

    await page.goto(fresh.setupLink!);
    await expect(page.getByRole('heading', { name: 'Créer le premier administrateur' })).toBeVisible();
    expect(page.url()).not.toContain('setup=');
    await page.getByLabel('Nom').fill('root');
    await page.getByLabel('Mot de passe', { exact: true }).fill('short');
    await page.getByLabel('Confirmez le mot de passe').fill('short');
    await page.getByRole('button', { name: 'Créer l’administrateur' }).click();
    await expect(page.getByTestId('setup-problem')).toHaveText('Le mot de passe doit compter au moins 10 caractères.');
    await page.getByLabel('Mot de passe', { exact: true }).fill('a-long-enough-password');
    await page.getByLabel('Confirmez le mot de passe').fill('a-long-enough-password');
    await shot(page, 'smoke-setup-fr');
    await page.getByRole('button', { name: 'Créer l’administrateur' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Clusters' })).toBeVisible();
    await expect(page.getByTestId('current-user')).toContainText('root');
    await expect(page.getByTestId('current-role')).toHaveText(/Administrateur/);
    await expect(page.getByTestId('clusters-empty')).toBeVisible();
    expect(await cspViolations(page)).toEqual([]);
    expect(problems()).toEqual([]);
    await context.close();
  } finally {
    await fresh.stop();
  }
});
