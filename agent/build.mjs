// Bundles the agent into one file runnable with plain `node` (out/agent/navin-agent.cjs): the container
// image needs nothing but Node and this file.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

await build({
  entryPoints: [`${root}/agent/main.ts`],
  outfile: `${root}/out/agent/navin-agent.cjs`,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: false,
  legalComments: 'eof',
  logLevel: 'warning',
});
