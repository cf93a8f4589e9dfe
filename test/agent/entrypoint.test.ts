// The frame both agent binaries share: exit 2 on a usage error, 0 on --help/--version and after SIGTERM,
// 1 with `start.refused` and its code when the start is refused for a stated reason.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runEntrypoint, type Entrypoint } from '../../agent/entrypoint';
import { AGENT_VERSION } from '../../agent/version';

class Refused extends Error {
  readonly code = 'config_invalid';
}

function capture(): { out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
  return { out: () => out.join(''), err: () => err.join('') };
}

function entry(start: Entrypoint['start']): Entrypoint {
  return {
    name: 'navin-test',
    usage: 'usage: navin-test --dir DIR',
    options: { dir: { type: 'string' } },
    check: (flags) => (typeof flags.dir === 'string' ? null : '--dir is required'),
    isRefusal: (error): error is Refused => error instanceof Refused,
    start,
  };
}

afterEach(() => vi.restoreAllMocks());

describe('an agent entrypoint', () => {
  it('answers an unknown flag and a missing required one with the usage and exit 2, before starting', async () => {
    const io = capture();
    const start = vi.fn();
    expect(await runEntrypoint(entry(start), ['--bogus'])).toBe(2);
    expect(await runEntrypoint(entry(start), [])).toBe(2);
    expect(io.err()).toMatch(/^navin-test: .*--bogus[\s\S]*usage: navin-test[\s\S]*navin-test: --dir is required/);
    expect(start).not.toHaveBeenCalled();
  });

  it('prints its version and its usage with exit 0', async () => {
    const io = capture();
    expect(await runEntrypoint(entry(vi.fn()), ['--version'])).toBe(0);
    expect(await runEntrypoint(entry(vi.fn()), ['-h'])).toBe(0);
    expect(io.out()).toBe(`${AGENT_VERSION}\nusage: navin-test --dir DIR\n`);
  });

  it('runs until SIGTERM, then stops what it started and exits 0', async () => {
    const io = capture();
    const stop = vi.fn(async () => {});
    const run = runEntrypoint(
      entry(async () => ({ stop })),
      ['--dir', '/x'],
    );
    await vi.waitFor(() => expect(process.listenerCount('SIGTERM')).toBeGreaterThan(0));
    expect(stop).not.toHaveBeenCalled();
    process.emit('SIGTERM');
    expect(await run).toBe(0);
    expect(stop).toHaveBeenCalledOnce();
    expect(io.out()).toContain('"event":"stopped"');
  });

  it('logs a refused start with its code, any other failure as failed, and exits 1', async () => {
    const io = capture();
    expect(
      await runEntrypoint(
        entry(() => Promise.reject(new Refused('bad signature'))),
        ['--dir', '/x'],
      ),
    ).toBe(1);
    expect(
      await runEntrypoint(
        entry(() => Promise.reject(new Error('disk full'))),
        ['--dir', '/x'],
      ),
    ).toBe(1);
    const lines = io
      .out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map(({ event, level, code, error }) => ({ event, level, code, error }))).toEqual([
      { event: 'start.refused', level: 'error', code: 'config_invalid', error: 'bad signature' },
      { event: 'failed', level: 'error', code: undefined, error: 'disk full' },
    ]);
  });
});
