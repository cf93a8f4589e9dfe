// journal.tail (read-only): the last lines of one managed unit's journal, as journalctl prints them (ISO
// timestamps), for the support archive. Only navin-*.service units; the line count is bounded.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { isManagedUnit, MAX_JOURNAL_LINES } from '../../main/wire/node-agent';
import { ExecutionError } from '../commands';

const run = promisify(execFile);

export function journalTailProblem(args: unknown): string | null {
  const a = args as { unit?: unknown; lines?: unknown } | null;
  if (typeof a !== 'object' || a === null) return 'args are {unit, lines}';
  if (!isManagedUnit(a.unit)) return `unit ${String(a.unit)} is not a unit the agent manages (navin-<name>.service)`;
  if (!Number.isInteger(a.lines) || (a.lines as number) < 1 || (a.lines as number) > MAX_JOURNAL_LINES)
    return `lines is a whole number from 1 to ${MAX_JOURNAL_LINES}`;
  return null;
}

export async function journalTail(
  args: { unit: string; lines: number },
  journalctl = 'journalctl',
): Promise<{ unit: string; text: string }> {
  try {
    const r = await run(journalctl, ['-u', args.unit, '-n', String(args.lines), '--no-pager', '-o', 'short-iso'], {
      timeout: 30_000,
      maxBuffer: 32 << 20,
    });
    return { unit: args.unit, text: r.stdout };
  } catch (error) {
    throw new ExecutionError('journal_failed', `journalctl -u ${args.unit} failed: ${(error as Error).message.slice(0, 500)}`);
  }
}
