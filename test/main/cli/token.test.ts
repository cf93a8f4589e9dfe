// `navin-manager token create|list|revoke`: a token with a lifetime (default 90 days, --expires 30d), listed with
// its state, revoked by id; the stdout of create is the token alone, for scripts.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/temp-dir';

const dir = tempDir('navin-cli-token-');
const data = join(dir.path, 'data');
beforeAll(() => {
  const pw = join(dir.path, 'pw');
  writeFileSync(pw, 'correct horse battery\n');
  expect(runCli(['user', 'add', '--data-dir', data, '--name', 'alice', '--role', 'admin', '--password-file', pw]).status).toBe(0);
});
afterAll(() => dir.remove());

test('create --expires 30d prints only the token; list shows it active with its expiry; revoke turns it revoked', () => {
  const before = Date.now();
  const made = runCli(['token', 'create', '--data-dir', data, '--user', 'alice', '--expires', '30d', '--name', 'ci']);
  expect(made.status).toBe(0);
  expect(made.stdout).toMatch(/^navin_[A-Za-z0-9_-]{43}\n$/);
  const list = runCli(['token', 'list', '--data-dir', data, '--user', 'alice']);
  expect(list.status).toBe(0);
  const [id, state, , expires] = list.stdout.trim().split(/\s+/);
  expect(state).toBe('active');
  const days = (Date.parse(expires!) - before) / 86_400_000;
  expect(days).toBeGreaterThan(29.9);
  expect(days).toBeLessThan(30.1);
  expect(list.stdout).toContain('ci');
  const revoked = runCli(['token', 'revoke', '--data-dir', data, '--user', 'alice', '--id', id!]);
  expect(revoked.status).toBe(0);
  expect(runCli(['token', 'list', '--data-dir', data, '--user', 'alice']).stdout).toMatch(new RegExp(`^${id}\\s+revoked`));
});

test('the default lifetime is 90 days; a lifetime beyond a year is a usage error (exit 2)', () => {
  expect(runCli(['token', 'create', '--data-dir', data, '--user', 'alice']).status).toBe(0);
  const lines = runCli(['token', 'list', '--data-dir', data, '--user', 'alice']).stdout.trim().split('\n');
  const newest = lines[0]!.split(/\s+/)[3]!;
  expect(Math.round((Date.parse(newest) - Date.now()) / 86_400_000)).toBe(90);
  const bad = runCli(['token', 'create', '--data-dir', data, '--user', 'alice', '--expires', '400d']);
  expect(bad.status).toBe(2);
  expect(bad.stderr).toContain('expires');
  expect(runCli(['token', 'revoke', '--data-dir', data, '--user', 'alice', '--id', 'nope']).status).toBe(1);
});
