// Debian's Chromium driven by Playwright from a vitest suite (no browser is downloaded), with the flags a closed
// network needs and a fresh profile; signed in to a headless manager as the harness's admin.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from '@playwright/test';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  page: Page;
  close(): Promise<void>;
}

export async function openConsole(managerUrl: string, user: { name: string; password: string }): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'navin-chromium-'));
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_FLAGS,
    ignoreHTTPSErrors: true,
    viewport: { width: 1360, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${new URL(managerUrl).origin}/`);
  await page.getByLabel('Name').fill(user.name);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Clusters' }).waitFor();
  return {
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
