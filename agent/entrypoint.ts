// What every agent binary does around its own work: parse the flags (usage error → exit 2), --help and --version,
// start, run until SIGTERM or SIGINT, stop. A start refused for a stated reason logs `start.refused` with its code.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { log } from './log';
import { AGENT_VERSION } from './version';

export type Flags = Record<string, string | boolean | undefined>;

export interface Entrypoint {
  /** The binary's name, as the first word of every error line. */
  name: string;
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** Returns a usage error for flags that parse but do not make sense, or null. */
  check?: (flags: Flags) => string | null;
  start: (flags: Flags) => Promise<{ stop(): Promise<void> }>;
  /** Errors whose code says why the start was refused (a config that does not verify, a corrupt state file). */
  isRefusal: (error: unknown) => error is Error & { code: string };
}

export async function runEntrypoint(entry: Entrypoint, argv: string[]): Promise<number> {
  let flags: Flags;
  try {
    flags = parseArgs({
      args: argv,
      options: { ...entry.options, version: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }).values as Flags;
  } catch (error) {
    process.stderr.write(`${entry.name}: ${(error as Error).message}\n${entry.usage}\n`);
    return 2;
  }
  if (flags.help) {
    process.stdout.write(`${entry.usage}\n`);
    return 0;
  }
  if (flags.version) {
    process.stdout.write(`${AGENT_VERSION}\n`);
    return 0;
  }
  const misuse = entry.check?.(flags) ?? null;
  if (misuse !== null) {
    process.stderr.write(`${entry.name}: ${misuse}\n${entry.usage}\n`);
    return 2;
  }
  try {
    const running = await entry.start(flags);
    await new Promise<void>((resolve) => {
      process.once('SIGTERM', resolve);
      process.once('SIGINT', resolve);
    });
    await running.stop();
    log('stopped');
    return 0;
  } catch (error) {
    if (entry.isRefusal(error)) log('start.refused', { code: error.code, error: error.message }, 'error');
    else log('failed', { error: (error as Error).message }, 'error');
    return 1;
  }
}

/** The entrypoint as a process: its exit code is runEntrypoint's. */
export function main(entry: Entrypoint): void {
  void runEntrypoint(entry, process.argv.slice(2)).then((code) => process.exit(code));
}
