import { defineConfig } from 'vitest/config';

// Suites that boot real test hosts are named *.hosts.test.ts: they get their own project with the timeouts
// a boot and a teardown need, and the project's globalSetup (run only when such a suite is selected) builds
// the cached root file system once before any worker starts. Every other suite keeps the short timeouts.
const HOSTS = 'test/**/*.hosts.test.ts';

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    benchmark: { include: ['test/bench/**/*.bench.ts'] },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/e2e/**', 'node_modules/**', 'out/**', HOSTS] },
      },
      {
        extends: true,
        test: {
          name: 'hosts',
          include: [HOSTS],
          globalSetup: ['test/support/hosts/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
