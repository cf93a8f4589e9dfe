// Every catalog setting has a declared type, and its values are judged by it: what is not an integer, a size,
// a duration, one of an enum, a host list or the pattern is refused with the reason, whatever it holds.
import { describe, expect, test } from 'vitest';
import { SettingDeclaration, settingProblem, sizeBytes, type SettingDecl } from '../../../../main/core/catalog/setting-types';

const decl = (d: unknown): SettingDecl => SettingDeclaration.parse(d);

describe('setting types', () => {
  test('an integer is a whole number within its bounds', () => {
    const d = decl({ type: 'integer', min: 0, max: 8589934592, default: 2147483648 });
    expect(settingProblem(d, 4294967296)).toBeNull();
    for (const bad of [-1, 8589934593, 1.5, '4294967296', true, null]) expect(settingProblem(d, bad), String(bad)).not.toBeNull();
  });

  test('a size is bytes or a number with K, M, G or T, read as powers of 1024; anything after it is refused', () => {
    const d = decl({ type: 'size', default: '256MB' });
    for (const ok of ['256MB', '1GB', '512M', '2GiB', '1024', '0', 4096]) expect(settingProblem(d, ok), String(ok)).toBeNull();
    for (const bad of ['256MB; store_dir: "/elsewhere"', '256 MB', '-1', '1.5G', '1PB', '', 'MB', '256mb\n', -4])
      expect(settingProblem(d, bad), String(bad)).toMatch(/a size in bytes/);
    expect(sizeBytes('256MB')).toBe(268435456);
    expect(sizeBytes('1G')).toBe(1073741824);
    expect(sizeBytes('2GiB')).toBe(2147483648);
    expect(sizeBytes(4096)).toBe(4096);
    expect(settingProblem(decl({ type: 'size', max: 1024, default: 1 }), '2K')).not.toBeNull();
  });

  test('a duration is a Go duration; a bare number only where the service reads one; empty only when optional', () => {
    const retention = decl({ type: 'duration', bare_unit: 'h', optional: true, default: '' });
    for (const ok of ['', '1', '30m', '1h30m', '1.5h', '500ms']) expect(settingProblem(retention, ok), ok).toBeNull();
    // Go durations are int64 nanoseconds: etcd refuses a longer one, so the type does too.
    expect(settingProblem(retention, '2562047h')).toBeNull();
    for (const bad of ['1\u2028force-new-cluster: true', '1" x', '-1h', '1d', '1 h', 1, '2562048h', '2562048', '999999999h'])
      expect(settingProblem(retention, bad), String(bad)).not.toBeNull();
    const strict = decl({ type: 'duration', default: '5s' });
    expect(settingProblem(strict, '5')).not.toBeNull();
    expect(settingProblem(strict, '')).not.toBeNull();
  });

  test('an enum is one of its values; a boolean is true or false', () => {
    const level = decl({ type: 'enum', values: ['debug', 'info'], default: 'info' });
    expect(settingProblem(level, 'debug')).toBeNull();
    expect(settingProblem(level, 'info\nforce: true')).not.toBeNull();
    const b = decl({ type: 'boolean', default: false });
    expect(settingProblem(b, true)).toBeNull();
    expect(settingProblem(b, 'true')).not.toBeNull();
  });

  test('a pattern is matched whole (the catalog cannot forget the anchors)', () => {
    const p = decl({ type: 'pattern', pattern: '[a-z]+', default: 'abc' });
    expect(settingProblem(p, 'abc')).toBeNull();
    expect(settingProblem(p, 'abc def')).toMatch(/matching/);
    expect(settingProblem(p, '')).not.toBeNull();
    expect(settingProblem(decl({ type: 'pattern', pattern: '[a-z]+', optional: true, default: '' }), '')).toBeNull();
    expect(() => decl({ type: 'pattern', pattern: '(', default: '' })).toThrow(/regular expression/);
    const loose = decl({ type: 'pattern', pattern: '[^]*', default: '' });
    expect(settingProblem(loose, 'a\0b')).toMatch(/NUL/);
    expect(settingProblem(loose, 'a\ud800b')).toMatch(/surrogate/);
  });

  test('a host list is names or addresses with an optional port, separated by commas', () => {
    const d = decl({ type: 'host_list', default: '' });
    for (const ok of ['', 'etcd-1.example.com:2379,10.0.0.2:2379', '[fe80::1]:4222', 'a']) expect(settingProblem(d, ok), ok).toBeNull();
    for (const bad of ['a, b', 'a;b', 'http://a', 'a:99999x', 'a\u2029b', 'a,,b']) expect(settingProblem(d, bad), bad).not.toBeNull();
  });

  test('a list is items separated by single spaces, each matching the item pattern', () => {
    const d = decl({ type: 'list', item: '--(no-)?collector\\.[a-z0-9_]+', default: '' });
    for (const ok of ['', '--no-collector.wifi', '--no-collector.wifi --collector.systemd']) expect(settingProblem(d, ok), ok).toBeNull();
    for (const bad of [
      '--no-collector.wifi --web.listen-address=0.0.0.0:9100',
      '--no-collector.wifi; /bin/sh',
      '--collector.textfile.directory=/',
      '--no-collector.wifi  --no-collector.zfs',
      '--no-collector.$HOME',
      '--no-collector.%h',
    ])
      expect(settingProblem(d, bad), bad).not.toBeNull();
  });

  test('a declaration without a known type is refused', () => {
    expect(SettingDeclaration.safeParse({ default: 'x' }).success).toBe(false);
    expect(SettingDeclaration.safeParse({ type: 'string', default: 'x' }).success).toBe(false);
    expect(SettingDeclaration.safeParse({ type: 'integer', default: 'x' }).success).toBe(false);
  });
});
