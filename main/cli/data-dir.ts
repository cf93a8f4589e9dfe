// Where the manager keeps its data when no --data-dir is given: the same folder the desktop app uses
// (Electron's userData for the app name navin-console), so both modes share one store.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const APP_DIR_NAME = 'navin-console';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.NAVIN_DATA_DIR) return resolve(env.NAVIN_DATA_DIR);
  const config = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(config, APP_DIR_NAME);
}

export function dataDirOption(value: string | boolean | undefined): string {
  return typeof value === 'string' && value.length > 0 ? resolve(value) : defaultDataDir();
}
