// The races of the components tab's YAML editor, each forced on purpose instead of waited for: a loaded machine
// delivers the next animation frame late (the form used to take the focus in one, from under the operator's
// typing), and the YAML parser, fetched the first time a manifest is checked, can arrive after the text was
// edited again (its verdict, or the Apply, then concerned a text no longer on screen).
import { expect, request, test, type Page, type Route } from '@playwright/test';
import { ALICE, startManager, type RunningManager } from './support/manager';

let manager: RunningManager;
let origin: string;
let clusterId: string;

const TOO_MANY = 'kind: ManagedComponent\nmetadata:\n  name: nats-bus\nspec:\n  component: nats\n  version: "2.10"\n  replicas: 100\n';
const VALID = 'kind: ManagedComponent\nmetadata:\n  name: nats-bus\nspec:\n  component: nats\n  version: "2.10"\n  replicas: 3\n';

test.use({ locale: 'fr-FR', viewport: { width: 1360, height: 820 } });

test.beforeAll(async () => {
  manager = await startManager({ users: [ALICE] });
  origin = new URL(manager.url).origin;
  const token = await manager.token('alice');
  const api = await request.newContext({
    baseURL: origin,
    ignoreHTTPSErrors: true,
    extraHTTPHeaders: { Authorization: `Bearer ${token}` },
  });
  const res = await api.post('/api/v1/clusters', { data: { name: 'edge-editor' } });
  expect(res.status()).toBe(201);
  clusterId = ((await res.json()) as { id: string }).id;
  await api.dispose();
});
test.afterAll(async () => {
  await manager?.stop();
});

async function openEditor(page: Page): Promise<void> {
  await page.goto(origin + '/');
  await page.getByLabel('Nom').fill(ALICE.name);
  await page.getByLabel('Mot de passe').fill(ALICE.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page.getByTestId('current-user')).toContainText('alice');
  await page.goto(`${origin}/#/clusters/${clusterId}/components`);
  await page.getByTestId('new-component').click();
  await page.getByTestId('apply-mode').getByRole('radio').nth(1).check();
}

/** Holds the YAML parser's chunk until `release()`. */
async function holdParser(page: Page): Promise<{ release: () => Promise<void> }> {
  const held: Route[] = [];
  let released = false;
  await page.route(/\/assets\/componentDocument-[^/]+\.js$/, async (route) => {
    if (released) return route.continue();
    held.push(route);
  });
  return {
    release: async () => {
      released = true;
      await Promise.all(held.splice(0).map((r) => r.continue()));
    },
  };
}

test('a late animation frame does not take the focus from under the operator typing a manifest', async ({ page }) => {
  // Frames are held until the test lets them run: the frame of a loaded machine arriving mid-typing.
  await page.addInitScript(() => {
    const held: FrameRequestCallback[] = [];
    window.requestAnimationFrame = (cb: FrameRequestCallback): number => held.push(cb);
    (window as unknown as { releaseFrames: () => void }).releaseFrames = () => held.splice(0).forEach((cb) => cb(performance.now()));
  });
  await openEditor(page);
  const doc = page.getByTestId('component-document');
  await doc.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  const [head, tail] = [TOO_MANY.slice(0, 40), TOO_MANY.slice(40)];
  await page.keyboard.type(head);
  await page.evaluate(() => (window as unknown as { releaseFrames: () => void }).releaseFrames());
  await page.keyboard.type(tail);
  await expect(doc).toBeFocused();
  await expect(doc).toHaveValue(TOO_MANY);
  await page.getByTestId('editor-check').click();
  await expect(page.getByTestId('component-editor-error')).toContainText('spec.replicas');
});

test('a check answered after the manifest was edited gives the verdict of the text on screen', async ({ page }) => {
  const parser = await holdParser(page);
  await openEditor(page);
  const doc = page.getByTestId('component-document');
  await doc.fill(VALID);
  await page.getByTestId('editor-check').click();
  await doc.fill(TOO_MANY);
  await parser.release();
  await expect(page.getByTestId('component-editor-error')).toContainText('spec.replicas');
  await expect(page.getByTestId('component-editor-valid')).toBeHidden();
});

test('Apply sends nothing when the manifest was edited while it was being checked', async ({ page }) => {
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/components')) posts.push(r.url());
  });
  const parser = await holdParser(page);
  await openEditor(page);
  const doc = page.getByTestId('component-document');
  await doc.fill(VALID);
  await page.getByTestId('editor-apply').click();
  await doc.fill(TOO_MANY);
  await parser.release();
  await expect(page.getByTestId('component-editor-error')).toContainText('spec.replicas');
  expect(posts).toEqual([]);
  await expect(page.getByTestId('apply-component')).toBeVisible();
});

test('a parser that cannot be loaded is said, not left as a silent Check', async ({ page }) => {
  await page.route(/\/assets\/componentDocument-[^/]+\.js$/, (route) => route.abort('connectionreset'));
  await openEditor(page);
  await page.getByTestId('component-document').fill(TOO_MANY);
  await page.getByTestId('editor-check').click();
  await expect(page.getByTestId('component-editor-error')).toContainText(/vérificateur/i);
});
