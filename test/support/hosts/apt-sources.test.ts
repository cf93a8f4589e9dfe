// The root file system comes from the machine's own Debian 12 mirror, and from nothing else apt knows.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { tempDir } from '../temp-dir';
import { debianLines, hostDebianSources, parseDeb822, parseOneLine } from './apt-sources';

const DEBIAN_SOURCES = `Types: deb
# http://snapshot.example/archive/debian/20250520T000000Z
URIs: http://mirror.example/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://mirror.example/debian-security
Suites: bookworm-security
Components: main non-free-firmware
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://mirror.example/debian
Suites: bookworm
Components: main

Enabled: no
Types: deb
URIs: http://disabled.example/debian
Suites: bookworm
Components: main
`;

let etc: ReturnType<typeof tempDir>;
beforeEach(() => {
  etc = tempDir();
});
afterEach(() => etc.remove());

it('takes the Debian 12 main entries of deb822 sources, skipping source, disabled and other stanzas', () => {
  expect(debianLines(parseDeb822(DEBIAN_SOURCES))).toEqual([
    'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://mirror.example/debian bookworm main',
    'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://mirror.example/debian bookworm-updates main',
    'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://mirror.example/debian-security bookworm-security main',
  ]);
});

it('leaves out third-party repositories, even one whose suite is called bookworm', () => {
  const lines = parseOneLine(
    [
      'deb http://local.example/debian bookworm main contrib # the local mirror',
      'deb [arch=amd64 signed-by=/usr/share/keyrings/vendor.gpg] https://vendor.example/apt bookworm main',
      'deb https://other.example/linux/debian bookworm stable',
      'deb https://nodes.example/node_20.x nodistro main',
      '# deb http://commented.example/debian bookworm main',
    ].join('\n'),
  );
  expect(debianLines(lines)).toEqual(['deb http://local.example/debian bookworm main']);
});

it('reads sources.list and sources.list.d, ignoring files apt itself ignores', () => {
  mkdirSync(join(etc.path, 'sources.list.d'));
  writeFileSync(join(etc.path, 'sources.list'), 'deb http://one.example/debian bookworm main\n');
  writeFileSync(join(etc.path, 'sources.list.d', 'debian.sources'), DEBIAN_SOURCES);
  writeFileSync(join(etc.path, 'sources.list.d', 'old.list.disabled'), 'deb http://off.example/debian bookworm main\n');
  const lines = hostDebianSources(etc.path);
  expect(lines[0]).toBe('deb http://one.example/debian bookworm main');
  expect(lines).toHaveLength(4);
  expect(lines.join('\n')).not.toContain('off.example');
});

it('finds nothing on a machine with no Debian 12 sources (mmdebstrap then uses its default mirror)', () => {
  expect(hostDebianSources(join(etc.path, 'missing'))).toEqual([]);
});
