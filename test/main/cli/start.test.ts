// `npm start` where no Electron binary can be had (as here): one line saying so, then the headless console.
import { describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { request } from 'node:https';
import { CLI } from '../../support/cli';
import { tempDir } from '../../support/temp-dir';
import { findElectron } from '../../../main/cli/commands/start';

describe('navin-manager start', () => {
  test.runIf('missing' in findElectron())('without an Electron binary it explains in one line and serves the console instead', async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, [CLI, 'start', '--data-dir', dir.path, '--port', '0', '--gateway-port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(out)), 30_000);
        child.stdout.on('data', () => {
          const m = /console at (https:\/\/\S+)/.exec(out);
          if (m) {
            clearTimeout(t);
            resolve(m[1]!);
          }
        });
      });
      const lines = out.split('\n');
      expect(lines[0]).toMatch(/^navin-manager: the Electron binary is not installed.*starting the headless manager instead/);
      const status = await new Promise<number>((resolve, reject) => {
        request(new URL('/api/v1/health', url), { rejectUnauthorized: false }, (res) => resolve(res.statusCode ?? 0))
          .on('error', reject)
          .end();
      });
      expect(status).toBe(200);
    } finally {
      child.kill('SIGINT');
      await new Promise((r) => child.once('exit', r));
      dir.remove();
    }
  });
});
