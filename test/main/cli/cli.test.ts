import { describe, expect, test } from 'vitest';
import { runCli } from '../../support/cli';

describe('navin-manager CLI', () => {
  test('--help lists every subcommand and exits 0', () => {
    const r = runCli(['--help']);
    expect(r.status).toBe(0);
    for (const c of ['serve', 'start', 'user', 'token', 'verify-report', 'canonicalize', 'catalog', 'release-key', 'bundle', 'mirror'])
      expect(r.stdout).toContain(c);
  });

  test.each(['serve', 'start', 'user', 'token', 'verify-report', 'canonicalize', 'catalog', 'release-key', 'bundle', 'mirror'])(
    '%s --help prints its usage and exits 0',
    (c) => {
      const r = runCli([c, '--help']);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain(`navin-manager ${c}`);
    },
  );

  test('no command, an unknown command or an unknown option is a usage error (exit 2)', () => {
    expect(runCli([]).status).toBe(2);
    expect(runCli(['frobnicate']).status).toBe(2);
    const r = runCli(['serve', '--bogus']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/bogus/);
    expect(runCli(['serve', '--port', 'eighty']).status).toBe(2);
    expect(runCli(['user', 'add', '--name', 'a']).status).toBe(2);
  });

  test('--version prints the package version', () => {
    const r = runCli(['--version']);
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
