// `npm run build` (electron-vite build) leaves out/main/cli.js executable, so `npx navin-manager` works after a rebuild.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
// Inside the repo, so the built CLI resolves its dependencies from node_modules as out/main/cli.js does.
const outDir = mkdtempSync(join(root, 'out', '.build-test-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('the build', () => {
  it('writes the CLI with its exec bit and a shebang, runnable by path', async () => {
    await promisify(execFile)(
      process.execPath,
      [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--outDir', outDir],
      {
        cwd: root,
        timeout: 120_000,
      },
    );
    const cli = join(outDir, 'main', 'cli.js');
    expect(statSync(cli).mode & 0o111).toBe(0o111);
    const { stdout } = await promisify(execFile)(cli, ['--help'], { cwd: root });
    expect(stdout).toContain('navin-manager');
  }, 180_000);
});
