// The wire contract's import rules, checked on real bundles: the portable modules build for the browser with
// no Node built-in, and the node:crypto implementation never pulls in @noble.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

const wireDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'main', 'wire');

async function inputsOf(entry: string, platform: 'browser' | 'node'): Promise<string[]> {
  const result = await build({
    entryPoints: [path.join(wireDir, entry)],
    bundle: true,
    write: false,
    platform,
    format: 'esm',
    metafile: true,
    logLevel: 'silent',
  });
  return Object.keys((result.metafile as Metafile).inputs);
}

describe('wire contract portability', () => {
  it.each([
    'protocol.ts',
    'payloads.ts',
    'service-checks.ts',
    'plan.ts',
    'canonical-json.ts',
    'ed25519-noble.ts',
    'report-verify.ts',
    'envelope.ts',
  ])('%s bundles for the browser without Node built-ins', async (entry) => {
    const inputs = await inputsOf(entry, 'browser');
    expect(inputs.filter((i) => i.startsWith('node:') || i.includes('ed25519-node'))).toEqual([]);
  });

  it('ed25519-node.ts does not load @noble', async () => {
    const inputs = await inputsOf('ed25519-node.ts', 'node');
    expect(inputs.some((i) => i.includes('ed25519-node.ts'))).toBe(true);
    expect(inputs.filter((i) => i.includes('@noble'))).toEqual([]);
  });
});
