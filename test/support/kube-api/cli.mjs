// Runs the Kubernetes API test server under plain Node: bundles cli.ts with esbuild (a dev dependency) into
// out/kube-api/, then starts it. `npm run kube-api -- --help` for the options.
import { build } from 'esbuild';
import { copyFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const outfile = `${root}/out/kube-api/cli.mjs`;

await build({
  entryPoints: [`${root}/test/support/kube-api/cli.ts`],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  logLevel: 'warning',
});
// The OpenAPI v2 protobuf schema is read at run time, next to the code.
copyFileSync(`${root}/test/support/kube-api/openapi-v2.proto`, `${root}/out/kube-api/openapi-v2.proto`);
const { main } = await import(pathToFileURL(outfile).href);
process.exitCode = await main(process.argv.slice(2));
