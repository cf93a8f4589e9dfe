// The layering of main/core (lint-enforced by .dependency-cruiser.cjs): no loop between its folders, no
// service importing the composition root. Proves the rule on the real tree and that it catches a loop.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

const config = createRequire(import.meta.url)('../../../.dependency-cruiser.cjs') as IConfiguration;

async function violations(baseDir: string): Promise<string[]> {
  const cwd = process.cwd();
  process.chdir(baseDir);
  try {
    const { output } = await cruise(['main/core'], {
      validate: true,
      ruleSet: { forbidden: config.forbidden },
      includeOnly: '^main/core/',
      // What lint leaves out of the layers (the domains' tables files, the console API's files) is left out here too.
      exclude: config.options?.exclude,
      tsPreCompilationDeps: true,
    });
    return (output as ICruiseResult).summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
  } finally {
    process.chdir(cwd);
  }
}

describe('the folders of main/core', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  function tree(files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'navin-layers-'));
    dirs.push(dir);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  }

  it('form no loop, and no service imports the composition root', async () => {
    expect(await violations(process.cwd())).toEqual([]);
  }, 60_000);

  it('a loop through two folders, even by a type-only import, is refused', async () => {
    const dir = tree({
      'main/core/preflight/preflight.ts': "import { check } from '../checks/check';\nexport const run = () => check();\n",
      'main/core/checks/check.ts':
        "import type { Run } from '../preflight/types';\nexport const check = (): Run | undefined => undefined;\n",
      'main/core/preflight/types.ts': 'export type Run = { id: string };\n',
    });
    expect((await violations(dir)).some((v) => v.startsWith('core-folder-cycle:'))).toBe(true);
  }, 60_000);

  it('a service importing the Manager is refused', async () => {
    const dir = tree({
      'main/core/manager.ts': "import { start } from './gateway/gateway';\nexport interface Manager { start: typeof start }\n",
      'main/core/gateway/gateway.ts': "import type { Manager } from '../manager';\nexport const start = (m?: Manager) => m;\n",
    });
    expect(await violations(dir)).toContain('core-composition-root: main/core/gateway/gateway.ts → main/core/manager.ts');
  }, 60_000);
});
