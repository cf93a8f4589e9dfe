// One build for the three Electron processes. The main build has two entries: the Electron shell (index) and
// the `navin-manager` CLI (cli), which runs the same core under plain Node and never loads electron.
import { chmodSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

/** The bin keeps its exec bit after a rebuild (npm sets it only at install): `npx navin-manager` must still run. */
const executableCli = {
  name: 'navin-executable-cli',
  writeBundle(options: { dir?: string }, bundle: Record<string, unknown>): void {
    if (options.dir && 'cli.js' in bundle) chmodSync(join(options.dir, 'cli.js'), 0o755);
  },
};

export default defineConfig({
  main: {
    plugins: [executableCli],
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: { index: resolve('main/index.ts'), cli: resolve('main/cli/index.ts') },
        output: { format: 'es', entryFileNames: '[name].js', banner: (chunk) => (chunk.name === 'cli' ? '#!/usr/bin/env node' : '') },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve('preload/index.ts') },
        // A sandboxed preload must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'renderer',
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      minify: true,
      rollupOptions: {
        input: { index: resolve('renderer/index.html') },
        // The two dictionaries' parts (shared in i18n/, each feature's beside it), loaded with the entry but as a
        // chunk of their own: every screen's words live there, and the entry chunk stays under the size limit.
        output: { codeSplitting: { groups: [{ name: 'messages', test: /renderer[\\/]src[\\/].*\.(en|fr)\.ts$/ }] } },
      },
    },
  },
});
