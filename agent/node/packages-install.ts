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
/** Each Pre-Depends chain among the packages of one task costs a run; Debian's are short. */
const MAX_DPKG_PASSES = 4;

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

/**
 * What a failed run said, readable whole: its stderr first (where dpkg and systemctl put the errors), then the
 * end of its stdout (dpkg's progress, the package it stopped at last), each cut at a line boundary.
 */
function failureDetail(error: unknown): string {
  const e = error as { stderr?: string; stdout?: string; code?: unknown; signal?: unknown; message: string };
  const tail = (text: string | undefined, max: number): string => {
    const t = (text ?? '').trim();
    if (t.length <= max) return t;
    const cut = t.slice(-max);
    const nl = cut.indexOf('\n');
    return `…${nl >= 0 && nl < cut.length - 1 ? cut.slice(nl + 1) : cut}`;
  };
  const parts = [tail(e.stderr, 2500), tail(e.stdout, 1500)].filter((x) => x.length > 0);
  const why = `(${String(e.code ?? e.signal ?? 'error')})`;
  return parts.length > 0 ? `${why}: ${parts.join('\n--- output:\n')}` : `${why}: ${e.message}`;
}

function failure(message: string, details?: Record<string, unknown>): ExecutionError {
  return new ExecutionError('packages_install_failed', message, details);
}

/**
 * One dpkg run over the files. dpkg writes where the agent's sandbox forbids (/usr, /var/lib/dpkg) and its
 * maintainer scripts add users: it runs in a transient unit of its own, with root's whole rights, as any unit
 * the agent starts has them. Resolves to what it printed; rejects as execFile does when it fails.
 */
async function runDpkg(files: string[], systemdRun: string | undefined): Promise<string> {
  const unit = `navin-packages-${process.pid}-${Date.now()}.service`;
  const r = await run(
    systemdRun ?? 'systemd-run',
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
  return `${r.stdout}${r.stderr}`;
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
    // dpkg checks a Pre-Depends at unpack time, and in one run it configures nothing before it has unpacked
    // everything, so a package pre-depending on another of the same run (gawk on libmpfr6) is refused; a further
    // run over those still missing, their prerequisites now configured, installs them. A run that brings no
    // package further ends it.
    let pending = missing;
    for (let pass = 1; pending.length > 0; pass++) {
      let refused: unknown;
      try {
        dpkgOutput += await runDpkg(
          pending.map((p) => ctx.readPath(p.path)),
          ctx.systemdRun,
        );
      } catch (error) {
        refused = error;
      }
      const still: typeof pending = [];
      for (const p of pending) if ((await installedVersion(dpkgQuery, p.name)) !== p.version) still.push(p);
      if (still.length === 0) break;
      if (still.length === pending.length || pass >= MAX_DPKG_PASSES) {
        if (refused === undefined) break; // dpkg said nothing wrong: the check below names what is missing
        throw failure(`dpkg --install of ${pending.length} packages failed ${failureDetail(refused)}`, {
          packages: pending.map((p) => `${p.name}=${p.version}`),
          still_missing: still.map((p) => p.name),
        });
      }
      pending = still;
    }
  }
  // What dpkg said is not taken for it: each package must now be installed whole, at its version.
  const wrong: string[] = [];
  for (const p of task.packages) {
    const v = await installedVersion(dpkgQuery, p.name);
    if (v !== p.version) wrong.push(`${p.name} is ${v ?? 'not installed'}, not ${p.version}`);
  }
  if (wrong.length > 0) throw failure(`after dpkg: ${wrong.join('; ')}`, { wrong });
  // Disabling a unit Debian ships as a SysV script too runs update-rc.d, which writes under /etc/rc?.d: read-only
  // in the agent's sandbox, so systemctl runs in a transient unit as dpkg does.
  const disabled = task.disable_units ?? [];
  if (disabled.length > 0) {
    try {
      await run(
        ctx.systemdRun ?? 'systemd-run',
        [
          '--wait',
          '--pipe',
          '--quiet',
          '--collect',
          `--unit=navin-packages-disable-${process.pid}-${Date.now()}.service`,
          '--',
          ctx.systemctl,
          'disable',
          '--now',
          ...disabled,
        ],
        { timeout: 120_000, maxBuffer: 1 << 20 },
      );
    } catch (error) {
      throw failure(`systemctl disable --now ${disabled.join(' ')} failed ${failureDetail(error)}`, { units: disabled });
    }
  }
  return {
    installed: missing.map((p) => `${p.name}=${p.version}`),
    already_installed: before.filter((p) => p.found === p.version).map((p) => `${p.name}=${p.version}`),
    disabled_units: [...disabled],
    ...(dpkgOutput ? { dpkg: dpkgOutput.slice(-4000) } : {}),
  };
}
