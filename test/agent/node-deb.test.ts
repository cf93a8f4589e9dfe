// The node agent's Debian package, built with dpkg-deb: reproducible, with the runtime and the hardened unit
// it declares, Depends on the libraries the runtime links, and runnable from its own files alone.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pkg from '../../package.json';
import { REPO_ROOT } from '../support/cli';
import { tempDir } from '../support/temp-dir';

/**
 * One build into out. `elsewhere` runs it from another folder, with umask 077 and another time zone: what the
 * package holds must not depend on the build's surroundings, only on the sources.
 */
const build = (out: string, elsewhere = false): string => {
  const argv = [process.execPath, join(REPO_ROOT, 'agent/node/build-deb.mjs'), '--out', out];
  if (!elsewhere) return execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8' }).trim();
  return execFileSync('sh', ['-c', 'umask 077 && exec "$@"', 'sh', ...argv], {
    encoding: 'utf8',
    cwd: out,
    env: { ...process.env, TZ: 'Pacific/Kiritimati' },
  }).trim();
};

describe('navin-node-agent Debian package', () => {
  const file = `navin-node-agent_${pkg.version}_amd64.deb`;
  const a = tempDir();
  const b = tempDir();
  let first = '';
  let second = '';
  // Two whole builds of a package holding the Node runtime, on a machine shared with other suites: a long hook.
  beforeAll(() => {
    first = build(a.path);
    second = build(b.path, true);
  }, 300_000);
  afterAll(() => {
    a.remove();
    b.remove();
  });

  test('two builds of the same sources, in different surroundings, give the same bytes, named navin-node-agent_<version>_amd64.deb', () => {
    expect(first).toMatch(new RegExp(`/${file.replace(/\./g, '\\.')} sha256:[0-9a-f]{64}$`));
    expect(second.split(' ')[1]).toBe(first.split(' ')[1]);
    expect(readFileSync(join(a.path, file)).equals(readFileSync(join(b.path, file)))).toBe(true);
  });

  // The bundle does not even load without the etcd client's .proto files beside it: --version proves they ship.
  test('it declares what it links, holds the runtime, the agent and a hardened unit, and runs from its own files', () => {
    const deb = join(a.path, file);
    const field = (f: string): string => execFileSync('dpkg-deb', ['-f', deb, f], { encoding: 'utf8' }).trim();
    expect(field('Package')).toBe('navin-node-agent');
    expect(field('Version')).toBe(pkg.version);
    expect(field('Architecture')).toBe('amd64');
    const depends = field('Depends');
    for (const lib of ['libc6 (>= ', 'libstdc++6 (>= ', 'libgcc-s1 (>= ', 'systemd']) expect(depends).toContain(lib);
    const listing = execFileSync('dpkg-deb', ['-c', deb], { encoding: 'utf8' });
    for (const line of listing.trim().split('\n')) expect(line).toMatch(/ root\/root .* 1970-01-01 00:00 \.\//);
    const root = join(a.path, 'root');
    execFileSync('dpkg-deb', ['-x', deb, root]);
    const unit = readFileSync(join(root, 'lib/systemd/system/navin-node-agent.service'), 'utf8');
    for (const line of [
      'ProtectSystem=strict',
      'ReadWritePaths=/etc/navin /opt/navin /var/lib/navin /etc/systemd/system',
      'NoNewPrivileges=yes',
      'StateDirectory=navin-node-agent',
      'ConditionPathExists=/etc/navin-node-agent/config.json',
    ])
      expect(unit).toContain(line);
    const r = spawnSync(
      join(root, 'usr/lib/navin-node-agent/node'),
      [join(root, 'usr/lib/navin-node-agent/agent/navin-node-agent.cjs'), '--version'],
      {
        encoding: 'utf8',
        env: {},
      },
    );
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(pkg.version);
  });
});
