// Bundles each agent into one file runnable with plain `node`: out/agent/navin-agent.cjs (the cluster agent,
// for its container image, beside out/agent/navin-operator.cjs, the operator) and out/agent/navin-node-agent.cjs (the node agent, for its Debian package). The
// service checks' etcd client reads its .proto files at load time from `<bundle folder>/../proto`: they are
// copied to out/proto, and whoever ships a bundle that holds the checks ships that folder beside it.
import { build } from 'esbuild';
import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

for (const [entry, out] of [
  ['agent/main.ts', 'out/agent/navin-agent.cjs'],
  ['agent/node/main.ts', 'out/agent/navin-node-agent.cjs'],
  ['agent/operator/main.ts', 'out/agent/navin-operator.cjs'],
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
rmSync(`${root}/out/proto`, { recursive: true, force: true });
cpSync(`${root}/node_modules/etcd3/proto`, `${root}/out/proto`, { recursive: true });
