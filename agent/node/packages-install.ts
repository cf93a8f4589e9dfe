// packages.install: Debian packages installed offline from .deb files the plan fetched and re-hashed, by dpkg
// alone. Packages already at their version are left alone, so the task runs again harmlessly; the packages'
// maintainer scripts start no service meanwhile, and the units Navin replaces with its own are disabled after.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import type { PackagesInstallTask } from '../../main/wire/plan';
import { ExecutionError } from '../commands';

const run = promisify(execFile);

const DPKG_TIMEOUT_MS = 15 * 60_000;

/**
 * dpkg over the files given as arguments. While it runs, Debian's policy-rc.d convention (exit 101) keeps the
 * maintainer scripts from starting any service; a policy the host already has is its own and stays.
 */
const DPKG_SCRIPT = [
  'policy=/usr/sbin/policy-rc.d; ours=',
  'if [ ! -e "$policy" ]; then printf \'#!/bin/sh\\nexit 101\\n\' > "$policy" && chmod 755 "$policy" && ours=1; fi',
  'dpkg --install --force-confdef --force-confold "$@"; rc=$?',
  'if [ -n "$ours" ]; then rm -f "$policy"; fi',
  'exit $rc',
].join('\n');

export interface PackagesContext {
  /** The real path of a path the plan names (a test's managed root prefix included). */
  readPath: (p: string) => string;
  systemctl: string;
  /** default from PATH */
  systemdRun?: string;
  dpkgQuery?: string;
}

/** The installed version of a package, or null when it is not installed whole ("ii"). */
async function installedVersion(dpkgQuery: string, name: string): Promise<string | null> {
  try {
    const r = await run(dpkgQuery, ['-W', '-f=${db:Status-Abbrev}\t${Version}', name], { timeout: 30_000 });
    const [status, version] = r.stdout.split('\t');
    return status?.startsWith('ii') && version ? version.trim() : null;
  } catch {
    return null;
  }
}

function failure(message: string, details?: Record<string, unknown>): ExecutionError {
  return new ExecutionError('packages_install_failed', message, details);
}

export async function installPackages(task: PackagesInstallTask, ctx: PackagesContext): Promise<Record<string, unknown>> {
  const dpkgQuery = ctx.dpkgQuery ?? 'dpkg-query';
  const before = await Promise.all(task.packages.map(async (p) => ({ ...p, found: await installedVersion(dpkgQuery, p.name) })));
  const missing = before.filter((p) => p.found !== p.version);
  let dpkgOutput = '';
  if (missing.length > 0) {
    const files = missing.map((p) => ctx.readPath(p.path));
    for (const [i, f] of files.entries())
      if (!existsSync(f)) throw failure(`${missing[i]!.name}: ${missing[i]!.path} was not fetched`, { package: missing[i]!.name });
    // dpkg writes where the agent's sandbox forbids (/usr, /var/lib/dpkg) and its maintainer scripts add users:
    // it runs in a transient unit of its own, with root's whole rights, as any unit the agent starts has them.
    const unit = `navin-packages-${process.pid}-${Date.now()}.service`;
    try {
      const r = await run(
        ctx.systemdRun ?? 'systemd-run',
        [
          '--wait',
          '--pipe',
          '--quiet',
          '--collect',
          `--unit=${unit}`,
          '--setenv=DEBIAN_FRONTEND=noninteractive',
          '--',
          '/bin/sh',
          '-c',
          DPKG_SCRIPT,
          'navin-packages',
          ...files,
        ],
        { timeout: DPKG_TIMEOUT_MS, maxBuffer: 16 << 20 },
      );
      dpkgOutput = `${r.stdout}${r.stderr}`;
    } catch (error) {
      const e = error as { stderr?: string; stdout?: string; code?: unknown; message: string };
      const detail = `${e.stdout ?? ''}${e.stderr ?? ''}`.trim().slice(-3000) || e.message;
      throw failure(`dpkg --install of ${missing.length} packages failed (${String(e.code ?? 'error')}): ${detail}`, {
        packages: missing.map((p) => `${p.name}=${p.version}`),
      });
    }
  }
  // What dpkg said is not taken for it: each package must now be installed whole, at its version.
  const wrong: string[] = [];
  for (const p of task.packages) {
    const v = await installedVersion(dpkgQuery, p.name);
    if (v !== p.version) wrong.push(`${p.name} is ${v ?? 'not installed'}, not ${p.version}`);
  }
  if (wrong.length > 0) throw failure(`after dpkg: ${wrong.join('; ')}`, { wrong });
  const disabled: string[] = [];
  for (const unit of task.disable_units ?? []) {
    try {
      await run(ctx.systemctl, ['disable', '--now', unit], { timeout: 120_000 });
    } catch (error) {
      const e = error as { stderr?: string; message: string };
      throw failure(`systemctl disable --now ${unit} failed: ${(e.stderr || e.message).trim().slice(-1000)}`, { unit });
    }
    disabled.push(unit);
  }
  return {
    installed: missing.map((p) => `${p.name}=${p.version}`),
    already_installed: before.filter((p) => p.found === p.version).map((p) => `${p.name}=${p.version}`),
    disabled_units: disabled,
    ...(dpkgOutput ? { dpkg: dpkgOutput.slice(-4000) } : {}),
  };
}
