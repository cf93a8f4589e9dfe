// The CLI's contract: exit 0 ok, 1 failure, 2 usage error; one UsageError type for every bad invocation.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface Command {
  name: string;
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  positionals?: boolean;
  run(args: ParsedArgs): Promise<number> | number;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** Parses a subcommand's arguments; unknown or malformed options are a UsageError, `--help` is handled by the caller. */
export function parse(command: Command, argv: string[]): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: command.positionals ?? false,
      strict: true,
    });
    return { values: values as ParsedArgs['values'], positionals };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Options that each take one text value (`--name value`), as most options do. */
export function textOptions(...names: string[]): Command['options'] {
  return Object.fromEntries(names.map((name) => [name, { type: 'string' as const }]));
}

export function requireString(args: ParsedArgs, name: string): string {
  const v = args.values[name];
  if (typeof v !== 'string' || v.length === 0) throw new UsageError(`--${name} is required`);
  return v;
}

export function portOption(value: string | boolean | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || n > 65535)
    throw new UsageError(`--port must be a number from 0 to 65535, not ${String(value)}`);
  return n;
}
