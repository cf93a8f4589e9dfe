// The renderer's bundle is split per screen: the entry chunk stays under Vite's 500 kB warning limit, and every
// screen of the shell is a chunk of its own, loaded the first time it is shown.
import { resolve } from 'node:path';
import { build, type Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import config from '../../electron.vite.config';

// Vite warns on a chunk over 500 kB (its chunkSizeWarningLimit, counted in thousands of bytes of code).
const LIMIT_BYTES = 500 * 1000;
const SCREENS = [
  'features/approvals/ApprovalsScreen.tsx',
  'features/audit/AuditScreen.tsx',
  'features/checks/ChecksScreen.tsx',
  'features/cluster/ClusterPage.tsx',
  'features/clusters/ClustersScreen.tsx',
  'features/commands/CommandsScreen.tsx',
  'features/reports/ReportsScreen.tsx',
  'features/mirror/MirrorScreen.tsx',
  'features/settings/SettingsScreen.tsx',
];

async function bundle(): Promise<Rollup.OutputChunk[]> {
  const renderer = (config as { renderer: Record<string, unknown> & { build: Record<string, unknown> } }).renderer;
  // As `npm run build` does: React's production build (the test runner sets NODE_ENV=test, which Vite would follow).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    const out = await build({
      ...renderer,
      mode: 'production',
      configFile: false,
      logLevel: 'silent',
      build: { ...renderer.build, write: false },
    });
    const outputs = (Array.isArray(out) ? out : [out]) as Rollup.RollupOutput[];
    return outputs.flatMap((o) => o.output.filter((item): item is Rollup.OutputChunk => item.type === 'chunk'));
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}

describe('the renderer build', () => {
  it('keeps the entry chunk under the size limit and puts each screen in a chunk of its own', async () => {
    const chunks = await bundle();
    const entries = chunks.filter((c) => c.isEntry);
    expect(entries).toHaveLength(1);
    const entry = entries[0]!;
    expect(entry.code.length).toBeLessThanOrEqual(LIMIT_BYTES);
    for (const chunk of chunks) expect(chunk.code.length, chunk.fileName).toBeLessThanOrEqual(LIMIT_BYTES);
    for (const screen of SCREENS) {
      const file = resolve('renderer/src', screen);
      expect(entry.moduleIds, `${screen} is in the entry chunk`).not.toContain(file);
      const own = chunks.find((c) => c.facadeModuleId === file);
      expect(own?.isDynamicEntry, `${screen} has no chunk of its own`).toBe(true);
    }
  }, 180_000);
});
