// `navin-manager start` (what `npm start` runs): opens the desktop window when an Electron binary is installed,
// else says so in one line and runs the headless manager instead.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { APP_ROOT } from '../app-paths';
import { dataDirOption } from '../data-dir';
import { say } from '../output';
import { portOption, type Command } from '../usage';
import { DEFAULT_GATEWAY_PORT, DEFAULT_PORT, serve } from './serve';

/** The Electron binary's path, or why there is none. The electron package throws when its binary is missing. */
export function findElectron(): { path: string } | { missing: string } {
  try {
    const path = createRequire(import.meta.url)('electron') as unknown;
    if (typeof path === 'string' && existsSync(path)) return { path };
    return { missing: 'the Electron binary is not installed' };
  } catch {
    return { missing: 'the Electron binary is not installed (its download is blocked or was skipped)' };
  }
}

export const startCommand: Command = {
  name: 'start',
  usage: `navin-manager start [--data-dir D] [--port ${DEFAULT_PORT}] [--gateway-port ${DEFAULT_GATEWAY_PORT}]

Opens the Navin Console window. Where no Electron binary is installed, prints one line saying
so and starts "navin-manager serve" on 127.0.0.1 instead, with the console URL.`,
  options: { 'data-dir': { type: 'string' }, port: { type: 'string' }, 'gateway-port': { type: 'string' } },
  async run(args) {
    const electron = findElectron();
    const dataDir = dataDirOption(args.values['data-dir']);
    if ('path' in electron && !process.env.NAVIN_HEADLESS) {
      const gw = args.values['gateway-port'] as string | undefined;
      const child = spawn(electron.path, [APP_ROOT, `--data-dir=${dataDir}`, ...(gw ? [`--gateway-port=${gw}`] : [])], {
        stdio: 'inherit',
      });
      return new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
    }
    const why = 'missing' in electron ? electron.missing : 'NAVIN_HEADLESS is set';
    say(`${why}; starting the headless manager instead (open the console URL below in a browser).`);
    return serve({
      dataDir,
      host: '127.0.0.1',
      port: portOption(args.values.port, DEFAULT_PORT),
      gateway: { host: '127.0.0.1', port: portOption(args.values['gateway-port'], DEFAULT_GATEWAY_PORT), serverName: '127.0.0.1' },
    });
  },
};
