// A suite that needs the registry, kubectl or test hosts is skipped where the piece is missing, and failed under
// CI: proven on the decision, on a real run of the operator suite with kubectl made absent, and on the suites
// that need the registry or kubectl, which all go through the one helper.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from './cli';
import { suitePlan } from './needs';

const registry = { ok: false as const, reason: 'docker-registry is not installed' };
const kubectl = { ok: false as const, reason: '/usr/bin/kubectl is not installed' };

describe('suites that need a tool of the machine', () => {
  test('run with every need met, are skipped with what is missing, and fail with it under CI', () => {
    expect(suitePlan([{ ok: true }, { ok: true }], {})).toEqual({ run: true });
    expect(suitePlan([{ ok: true }, { ok: true }], { CI: 'true' })).toEqual({ run: true });
    expect(suitePlan([registry, { ok: true }, kubectl], {})).toEqual({
      run: false,
      skip: 'docker-registry is not installed; /usr/bin/kubectl is not installed',
    });
    expect(suitePlan([registry], { CI: 'true' })).toEqual({ run: false, fail: 'docker-registry is not installed' });
    expect(suitePlan([registry], { CI: '' })).toEqual({ run: false, skip: 'docker-registry is not installed' });
  });

  test.each([
    'test/main/core/preflight/preflight.test.ts',
    'test/main/core/reports/acceptance-connected.test.ts',
    'test/main/core/checks/offline-source.test.ts',
    'test/main/core/bundle/bundle.test.ts',
    'test/main/core/mirror/oci-client.test.ts',
    'test/agent/operator/operator.test.ts',
    'test/main/core/kubernetes/operator-rbac.test.ts',
    'test/main/core/catalog/catalog-mirror-routes.test.ts',
    'test/main/core/catalog/catalog-rules.test.ts',
    'test/main/cli/bundle-cli.test.ts',
  ])('%s states its needs through describeNeeding, never a bare skipIf', (file) => {
    const text = readFileSync(join(REPO_ROOT, file), 'utf8');
    expect(text).toMatch(/describeNeeding\(/);
    expect(text).not.toMatch(/describe\.(skipIf|runIf)\(/);
  });

  test('the operator suite with kubectl absent is skipped, and fails saying so under CI', () => {
    const run = (ci: boolean) =>
      spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'), 'run', 'test/agent/operator/operator.test.ts'], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        timeout: 90_000,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          KUBECTL_BIN: '/nonexistent/kubectl',
          NO_COLOR: '1',
          ...(ci ? { CI: 'true' } : {}),
        },
      });
    const local = run(false);
    expect(local.status, local.stdout + local.stderr).toBe(0);
    expect(local.stdout).toMatch(/skipped/);
    const ci = run(true);
    expect(ci.status, ci.stdout + ci.stderr).toBe(1);
    expect(ci.stdout + ci.stderr).toMatch(/has what the suite needs/);
    expect(ci.stdout + ci.stderr).toMatch(/\/nonexistent\/kubectl is not installed/);
  }, 120_000);
});
