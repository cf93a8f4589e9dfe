// Bundles each agent into one file runnable with plain `node`: out/agent/navin-agent.cjs (the cluster agent,
// for its container image) and out/agent/navin-node-agent.cjs (the node agent, for its Debian package).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

for (const [entry, out] of [
  ['agent/main.ts', 'out/agent/navin-agent.cjs'],
  ['agent/node/main.ts', 'out/agent/navin-node-agent.cjs'],
]) {
  await build({
    entryPoints: [`${root}/${entry}`],
    outfile: `${root}/${out}`,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: false,
    legalComments: 'eof',
    logLevel: 'warning',
  });
}
