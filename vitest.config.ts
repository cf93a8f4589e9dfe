import { defineConfig } from 'vitest/config';

// Suites and benchmarks that boot real test hosts are named *.hosts.test.ts / *.hosts.bench.ts: they get a
// project of their own with the timeouts a boot and a teardown need, and that project's globalSetup (run
// only when one of its files is selected) builds the cached root file system once before any worker starts.
// Every other suite keeps the short timeouts and never waits for a build.
const HOSTS_TESTS = 'test/**/*.hosts.test.ts';
const HOSTS_BENCHES = 'test/bench/**/*.hosts.bench.ts';

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'node_modules/**', 'out/**', HOSTS_TESTS],
          benchmark: { include: ['test/bench/**/*.bench.ts'], exclude: [HOSTS_BENCHES] },
        },
      },
      {
        extends: true,
        test: {
          name: 'hosts',
          include: [HOSTS_TESTS],
          benchmark: { include: [HOSTS_BENCHES] },
          globalSetup: ['test/support/hosts/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
