// packages.install against stand-ins for systemd-run and dpkg-query that keep a status file: the packages not
// yet at their version go to dpkg in one run (through the transient unit), the others are left alone, a run
// that leaves a package missing fails, and the wire refuses a malformed task before any of it.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { installPackages } from '../../../agent/node/packages-install';
import { planProblem, type PackagesInstallTask } from '../../../main/wire/plan';
import { tempDir } from '../../support/temp-dir';

let dir: { path: string; remove(): void };
let status: string;
let calls: string;

/** A stand-in: systemd-run records its argv and "installs" each .deb named <name>_<version>.deb into the status file. */
function tools(opts: { installs: boolean }): { systemdRun: string; dpkgQuery: string; systemctl: string } {
  const systemdRun = join(dir.path, 'systemd-run');
  writeFileSync(
    systemdRun,
    [
      '#!/bin/sh',
      // One line per call: the script argument's line breaks become spaces.
      `printf '%s ' "$@" | tr '\\n' ' ' >> ${calls}; echo >> ${calls}`,
      ...(opts.installs
        ? ['for f in "$@"; do case "$f" in *.deb) b=$(basename "$f" .deb); echo "${b%%_*} ${b#*_}" >> ' + status + ';; esac; done']
        : []),
      'exit 0',
      '',
    ].join('\n'),
  );
  const dpkgQuery = join(dir.path, 'dpkg-query');
  // dpkg-query -W -f=... NAME: "ii\t<version>" when the status file has it, else exit 1.
  writeFileSync(
    dpkgQuery,
    [
      '#!/bin/sh',
      'for n; do :; done',
      `v=$(awk -v n="$n" '$1 == n { v = $2 } END { print v }' ${status})`,
      '[ -n "$v" ] || exit 1',
      'printf "ii \\t%s" "$v"',
      '',
    ].join('\n'),
  );
  const systemctl = join(dir.path, 'systemctl');
  writeFileSync(systemctl, ['#!/bin/sh', `echo "systemctl $@" >> ${calls}`, ''].join('\n'));
  for (const f of [systemdRun, dpkgQuery, systemctl]) chmodSync(f, 0o755);
  return { systemdRun, dpkgQuery, systemctl };
}

const deb = (name: string, version: string): { name: string; version: string; path: string } => {
  const path = join(dir.path, `${name}_${version}.deb`);
  writeFileSync(path, 'a .deb');
  return { name, version, path };
};

beforeEach(() => {
  dir = tempDir('navin-packages-');
  status = join(dir.path, 'status');
  calls = join(dir.path, 'calls');
  writeFileSync(status, 'libpq5 15.20-0+deb12u1\nssl-cert 1.1.1\n');
});
afterEach(() => dir.remove());

test('installs only the packages not at their version, in one dpkg run, then disables the replaced units', async () => {
  const t = tools({ installs: true });
  const task: PackagesInstallTask = {
    id: 'packages',
    kind: 'packages.install',
    packages: [deb('libpq5', '15.20-0+deb12u1'), deb('ssl-cert', '1.1.2'), deb('postgresql-15', '15.20-0+deb12u1')],
    disable_units: ['postgresql.service'],
  };
  const out = await installPackages(task, { readPath: (p) => p, ...t });
  expect(out.installed).toEqual(['ssl-cert=1.1.2', 'postgresql-15=15.20-0+deb12u1']);
  expect(out.already_installed).toEqual(['libpq5=15.20-0+deb12u1']);
  expect(out.disabled_units).toEqual(['postgresql.service']);
  const lines = readFileSync(calls, 'utf8').trim().split('\n');
  expect(lines).toHaveLength(2);
  // One transient unit ran dpkg over exactly the two missing files.
  expect(lines[0]).toMatch(
    /^--wait --pipe --quiet --collect --unit=navin-packages-\S+\.service --setenv=DEBIAN_FRONTEND=noninteractive -- \/bin\/sh -c /,
  );
  expect(lines[0]).toContain('dpkg --install');
  expect(lines[0]).toContain('ssl-cert_1.1.2.deb');
  expect(lines[0]).toContain('postgresql-15_15.20-0+deb12u1.deb');
  expect(lines[0]).not.toContain('libpq5_');
  // The replaced unit is disabled in a transient unit too (update-rc.d writes where the agent's sandbox cannot).
  expect(lines[1]).toMatch(
    /^--wait --pipe --quiet --collect --unit=navin-packages-disable-\S+\.service -- \S*systemctl disable --now postgresql\.service$/,
  );

  // Again: everything is there, dpkg is not run.
  const again = await installPackages(task, { readPath: (p) => p, ...t });
  expect(again.installed).toEqual([]);
  expect(again.already_installed).toHaveLength(3);
  expect(
    readFileSync(calls, 'utf8')
      .trim()
      .split('\n')
      .filter((l) => l.includes('dpkg --install')),
  ).toHaveLength(1);
});

test('a run that leaves a package missing fails packages_install_failed, naming it', async () => {
  const t = tools({ installs: false });
  const task: PackagesInstallTask = { id: 'packages', kind: 'packages.install', packages: [deb('postgresql-15', '15.20-0+deb12u1')] };
  await expect(installPackages(task, { readPath: (p) => p, ...t })).rejects.toMatchObject({
    code: 'packages_install_failed',
    message: expect.stringContaining('postgresql-15 is not installed, not 15.20-0+deb12u1'),
  });
});

test('a package refused for a Pre-Depends on another of the same run is installed by a further run over it alone', async () => {
  const t = tools({ installs: false });
  // dpkg as it behaves: gawk pre-depends on libmpfr6, which must be configured (installed before this run) first.
  writeFileSync(
    t.systemdRun,
    [
      '#!/bin/sh',
      `printf '%s ' "$@" | tr '\\n' ' ' >> ${calls}; echo >> ${calls}`,
      `had=$(cat ${status}); rc=0`,
      'for f in "$@"; do case "$f" in *.deb) b=$(basename "$f" .deb); n=${b%%_*}',
      '  if [ "$n" = gawk ] && ! echo "$had" | grep -q "^libmpfr6 "; then echo "pre-dependency problem - not installing gawk" >&2; rc=1',
      `  else echo "$n \${b#*_}" >> ${status}; fi;; esac; done`,
      'exit $rc',
      '',
    ].join('\n'),
  );
  const task: PackagesInstallTask = {
    id: 'packages',
    kind: 'packages.install',
    packages: [deb('libmpfr6', '4.2.0-1'), deb('gawk', '1:5.2.1-2')],
  };
  const out = await installPackages(task, { readPath: (p) => p, ...t });
  expect(out.installed).toEqual(['libmpfr6=4.2.0-1', 'gawk=1:5.2.1-2']);
  const runs = readFileSync(calls, 'utf8').trim().split('\n');
  expect(runs).toHaveLength(2);
  expect(runs[0]).toContain('libmpfr6_4.2.0-1.deb');
  expect(runs[1]).toContain('gawk_1:5.2.1-2.deb');
  expect(runs[1]).not.toContain('libmpfr6_');
});

test('a run that brings no package further fails with what dpkg said, without trying again', async () => {
  const t = tools({ installs: false });
  writeFileSync(t.systemdRun, ['#!/bin/sh', `echo run >> ${calls}`, "echo 'dpkg: error: broken archive' >&2", 'exit 2', ''].join('\n'));
  const task: PackagesInstallTask = { id: 'packages', kind: 'packages.install', packages: [deb('socat', '1.7.4.4-2')] };
  await expect(installPackages(task, { readPath: (p) => p, ...t })).rejects.toMatchObject({
    code: 'packages_install_failed',
    message: expect.stringContaining('(2): dpkg: error: broken archive'),
  });
  expect(readFileSync(calls, 'utf8').trim().split('\n')).toEqual(['run']);
});

test('a failed dpkg run fails packages_install_failed with its errors first, cut at a line, not mid-word', async () => {
  const t = tools({ installs: false });
  const progress = Array.from({ length: 400 }, (_, i) => `Unpacking package-${i} ...`).join('\\n');
  writeFileSync(
    t.systemdRun,
    ['#!/bin/sh', `printf '${progress}\\n'`, "echo 'dpkg: error processing package mariadb-server (--install):' >&2", 'exit 1', ''].join(
      '\n',
    ),
  );
  const task: PackagesInstallTask = { id: 'packages', kind: 'packages.install', packages: [deb('mariadb-server', '1:10.11.19-0+deb12u1')] };
  const error = (await installPackages(task, { readPath: (p) => p, ...t }).catch((e: unknown) => e)) as { code: string; message: string };
  expect(error.code).toBe('packages_install_failed');
  expect(error.message).toMatch(
    /^dpkg --install of 1 packages failed \(1\): dpkg: error processing package mariadb-server \(--install\):\n--- output:\n…Unpacking package-\d+ \.\.\.\n/,
  );
  expect(error.message).toContain('Unpacking package-399 ...');
  expect(error.message).not.toContain('Unpacking package-0 ');
});

test('a .deb that was not fetched fails before dpkg runs', async () => {
  const t = tools({ installs: true });
  const task: PackagesInstallTask = {
    id: 'packages',
    kind: 'packages.install',
    packages: [{ name: 'galera-4', version: '26.4.23-0+deb12u1', path: join(dir.path, 'absent.deb') }],
  };
  await expect(installPackages(task, { readPath: (p) => p, ...t })).rejects.toMatchObject({ code: 'packages_install_failed' });
  expect(existsSync(calls)).toBe(false);
});

test('the wire refuses a malformed packages.install', () => {
  const roots = ['/opt/navin'];
  const isUnit = () => true;
  const plan = (t: Record<string, unknown>) => planProblem({ tasks: [{ id: 'p', kind: 'packages.install', ...t }] }, roots, isUnit);
  const ok = { name: 'libpq5', version: '15.20-0+deb12u1', path: '/opt/navin/postgresql/15.20.0-1/libpq5' };
  expect(plan({ packages: [ok], disable_units: ['postgresql.service'] })).toBeNull();
  expect(plan({ packages: [] })).toMatch(/packages is a list/);
  expect(plan({ packages: [{ ...ok, path: '/tmp/libpq5.deb' }] })).toMatch(/not under a managed root/);
  expect(plan({ packages: [{ ...ok, name: 'Bad Name' }] })).toMatch(/Debian package name/);
  expect(plan({ packages: [{ ...ok, version: 'x y' }] })).toMatch(/Debian version/);
  expect(plan({ packages: [ok, ok] })).toMatch(/named twice/);
  expect(plan({ packages: [ok], disable_units: ['postgresql'] })).toMatch(/disable_units/);
});
