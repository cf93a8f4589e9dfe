// `npm run openapi`: writes resources/openapi.json, the console API's OpenAPI 3.1 document as the manager serves
// it (GET /api/v1/openapi.json), from the contract's schemas and the router's routes. Run it again whenever a
// route or a schema changes: a test compares the committed file with what the contract makes now.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import { runnerImport } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const target = `${root}/resources/openapi.json`;

// The contract and the router are TypeScript, run as the tests run them (vite's module runner).
const load = async (path) => (await runnerImport(`${root}/${path}`, { root, configFile: false, logLevel: 'warn' })).module;
const { consoleApi } = await load('main/api/console-api.ts');
const { openApiBuild } = await load('main/contract/openapi.ts');
const { VERSION } = await load('main/core/version.ts');
const built = openApiBuild({ version: VERSION, routes: consoleApi().list() });
for (const gap of built.gaps) console.warn(`openapi: ${gap.route} (${gap.part}) is described as anything: ${gap.message}`);

const options = { ...(await prettier.resolveConfig(target)), filepath: target };
const text = await prettier.format(JSON.stringify(built.document), options);
const before = (() => {
  try {
    return readFileSync(target, 'utf8');
  } catch {
    return '';
  }
})();
writeFileSync(target, text);
console.log(`${before === text ? 'unchanged' : 'wrote'} resources/openapi.json (${Object.keys(built.document.paths).length} paths)`);
