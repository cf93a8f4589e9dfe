// Runs the Kubernetes API test server under plain Node: bundles cli.ts with esbuild (a dev dependency) into
// out/kube-api/, then starts it. `npm run kube-api -- --help` for the options.
import { build } from 'esbuild';
import { copyFileSync, renameSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const outfile = `${root}/out/kube-api/cli.mjs`;
// Written under a name of this process, then renamed: two launchers starting at once never read a half-written file.
const part = `.${process.pid}.part`;

await build({
  entryPoints: [`${root}/test/support/kube-api/cli.ts`],
  outfile: outfile + part,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  logLevel: 'warning',
});
// The OpenAPI v2 protobuf schema is read at run time, next to the code.
const proto = `${root}/out/kube-api/openapi-v2.proto`;
copyFileSync(`${root}/test/support/kube-api/openapi-v2.proto`, proto + part);
renameSync(proto + part, proto);
renameSync(outfile + part, outfile);
const { main } = await import(pathToFileURL(outfile).href);
process.exitCode = await main(process.argv.slice(2));
