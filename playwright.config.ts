import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS } from './test/support/browser';

// The console is tested in Debian's Chromium against the headless manager; no browser is downloaded.
export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/e2e-artifacts',
  timeout: 120_000,
  workers: 1,
  reporter: [['list']],
  use: {
    ignoreHTTPSErrors: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_FLAGS,
    },
  },
});
