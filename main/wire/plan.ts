// A plan: the ordered tasks of one signed `plan.execute` command, run by the node agent one after the other and
// reported task by task. The manager checks a plan with planProblem() before signing it; the agent checks it
// again after verifying the envelope. Portable: no Node APIs.
import { csrNamesProblem } from './certificate-names';
import { checkParams } from './service-checks';

export const TASK_KINDS = [
  'artifact.fetch',
  'file.write',
  'file.remove',
  'unit.write',
  'unit.remove',
  'systemd.daemon_reload',
  'systemd.enable',
  'systemd.disable',
  'systemd.start',
  'systemd.stop',
  'systemd.restart',
  'check',
  'liveness.watch',
  'liveness.unwatch',
  'command.run',
  'files.hash',
  'files.verify',
  'file.read',
  'tls.csr',
  'packages.install',
] as const;
export type TaskKind = (typeof TASK_KINDS)[number];
export const SYSTEMCTL_TASKS = ['systemd.enable', 'systemd.disable', 'systemd.start', 'systemd.stop', 'systemd.restart'] as const;
export type SystemctlTask = (typeof SYSTEMCTL_TASKS)[number];

interface TaskBase {
  /** Unique in its plan; names the task in progress reports and receipts. */
  id: string;
  title?: string;
}
/** Downloads a blob over HTTPS (the mirror), re-hashes it, and installs it at path only if the digest matches. */
export interface FetchTask extends TaskBase {
  kind: 'artifact.fetch';
  url: string;
  digest: string;
  path: string;
  /** Octal file mode, e.g. "0755"; default 0644. */
  mode?: string;
  /** PEM of the CA the mirror's certificate chains to; default: the system's trust store. */
  ca_pem?: string;
  size?: number;
}
export interface FileWriteTask extends TaskBase {
  kind: 'file.write';
  path: string;
  /** UTF-8 text, or base64 bytes in content_base64 (exactly one of them). */
  content?: string;
  content_base64?: string;
  /** sha256 hex of the bytes: the agent refuses content that does not hash to it. */
  sha256: string;
  mode?: string;
}
export interface FileRemoveTask extends TaskBase {
  kind: 'file.remove';
  path: string;
}
export interface UnitWriteTask extends TaskBase {
  kind: 'unit.write';
  unit: string;
  content: string;
  sha256: string;
}
export interface UnitRemoveTask extends TaskBase {
  kind: 'unit.remove';
  unit: string;
}
export interface DaemonReloadTask extends TaskBase {
  kind: 'systemd.daemon_reload';
}
export interface SystemctlUnitTask extends TaskBase {
  kind: SystemctlTask;
  unit: string;
}
/**
 * A liveness, readiness or functional check of main/wire/service-checks.ts, run by the agent (agent/checks); its
 * CheckOutcome is the task's output, and a failed check stops the plan (check_failed) like any task.
 */
export interface CheckTask extends TaskBase {
  kind: 'check';
  check: { kind: string; params: Record<string, unknown> };
  /**
   * Right after a start, a service may take a moment to listen: the check is run again until it passes, for at
   * most this many seconds (its last outcome stands). Absent: one run, the state as it is.
   */
  retry_for_s?: number;
}
export const MAX_CHECK_RETRY_S = 300;
/**
 * Makes the agent run an instance's liveness check on its own, every interval_s, and report the outcome with its
 * facts (at once when it changes), until a liveness.unwatch of the same unit.
 */
export interface LivenessWatchTask extends TaskBase {
  kind: 'liveness.watch';
  unit: string;
  check: { kind: string; params: Record<string, unknown> };
  interval_s: number;
  /** The unit is the host's metrics exporter (the catalog's host_metrics): read with each report. */
  scrape?: { url: string; ca_file?: string };
}
export interface LivenessUnwatchTask extends TaskBase {
  kind: 'liveness.unwatch';
  unit: string;
}
/**
 * Runs one command of the catalog's steps (a backup's snapshot, a restore's move), without a shell: argv[0] is a
 * binary the console installed (under a managed root) or one of RUNNABLE_TOOLS. Fails command_failed on a
 * non-zero exit or after timeout_s.
 */
export interface CommandRunTask extends TaskBase {
  kind: 'command.run';
  argv: string[];
  timeout_s?: number;
}
/** Hashes files (a backup's), reporting each one's sha256 and size; a missing one fails file_missing. */
export interface FilesHashTask extends TaskBase {
  kind: 'files.hash';
  paths: string[];
}
/** Checks files against the sha256 recorded for them; any difference fails backup_modified, naming them. */
export interface FilesVerifyTask extends TaskBase {
  kind: 'files.verify';
  files: Record<string, string>;
}
/**
 * Reads a file whole and reports its bytes (base64) with their sha256: how a backup held on one host reaches the
 * manager, which checks them against the sha256 recorded for the backup and writes them to the other members
 * (file.write checks them again there). At most MAX_INLINE_BYTES, what a file.write can carry; larger fails
 * file_too_large.
 */
export interface FileReadTask extends TaskBase {
  kind: 'file.read';
  path: string;
}
/**
 * Makes the TLS key of a service on the host and returns a PKCS#10 request for it: the manager signs the request
 * and the key never leaves the host. The key is RSA 2048 (the manager parses only RSA requests), written 0600
 * and root's (a unit hands it to its DynamicUser with LoadCredential=). The output carries the request and the
 * public key's sha256, nothing else derived from the key; the signed certificate and its CA come back as
 * file.write tasks, being public.
 */
export interface TlsCsrTask extends TaskBase {
  kind: 'tls.csr';
  key_path: string;
  common_name: string;
  dns_names: string[];
  ip_addresses: string[];
  /** Make a new key even when a usable one is there (a renewal rotates keys); false keeps it. */
  rotate: boolean;
}
/**
 * Installs Debian packages offline from .deb files a plan fetched first under a managed root (artifact.fetch
 * re-hashed each against its pinned digest): dpkg alone, nothing fetched. A package already installed at its
 * version is left as it is, so the task runs again harmlessly; the others go in one dpkg run, which orders them
 * by their dependencies, in a transient unit of its own (dpkg needs root's whole rights, which the agent's
 * sandbox withholds). While it runs the packages' maintainer scripts start no service (policy-rc.d), and the
 * units in disable_units (the packages' own, when Navin runs the service under its own unit) are disabled and
 * stopped after, so they neither hold the service's ports nor start at boot. Fails packages_install_failed.
 */
export interface PackagesInstallTask extends TaskBase {
  kind: 'packages.install';
  packages: { name: string; version: string; path: string }[];
  disable_units?: string[];
}
export const MAX_PACKAGES = 100;
const DEB_NAME = /^[a-z0-9][a-z0-9+.-]{0,99}$/;
const DEB_VERSION = /^([0-9]+:)?[0-9][A-Za-z0-9.+~-]{0,99}$/;
const SYSTEM_UNIT = /^[a-z0-9][a-z0-9@._-]{0,99}\.service$/;

export const RUNNABLE_TOOLS = ['mv', 'rm', 'cp', 'chown', 'tar', 'mkdir'] as const;
export const MAX_COMMAND_TIMEOUT_S = 3600;

export type PlanTask =
  | CommandRunTask
  | FilesHashTask
  | FilesVerifyTask
  | FileReadTask
  | TlsCsrTask
  | PackagesInstallTask
  | FetchTask
  | FileWriteTask
  | FileRemoveTask
  | UnitWriteTask
  | UnitRemoveTask
  | DaemonReloadTask
  | SystemctlUnitTask
  | CheckTask
  | LivenessWatchTask
  | LivenessUnwatchTask;

export const MIN_WATCH_INTERVAL_S = 5;
export const MAX_WATCH_INTERVAL_S = 3600;

/** The args of a plan.execute command. */
export interface PlanArgs {
  title?: string;
  tasks: PlanTask[];
}

export type TaskStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'skipped';

/** What happened to one task: in progress reports, in the agent's state, and in the final receipt's result. */
export interface TaskOutcome {
  index: number;
  id: string;
  kind: string;
  status: TaskStatus;
  started_at?: string;
  finished_at?: string;
  duration_ms?: number;
  code?: string;
  message?: string;
  /** What the task did or saw (sha256 written, unit state, check evidence…). */
  output?: Record<string, unknown>;
  /** Set when the agent died during this task and ran it again after its restart. */
  resumed?: boolean;
}

/** The result of a plan.execute receipt: every task, the ones not run marked skipped. */
export interface PlanResult {
  tasks: TaskOutcome[];
  total: number;
  succeeded: number;
  failed_task: string | null;
}

/** POST /v1/node-agent/progress: one task started or finished. */
export interface PlanProgressRequest {
  command_id: string;
  total: number;
  task: TaskOutcome;
}

/** Codes a task (and so the plan's receipt) fails with. */
export const TASK_CODES = [
  'artifact_fetch_failed',
  'digest_mismatch',
  'content_mismatch',
  'path_not_managed',
  'unit_not_managed',
  'file_write_failed',
  'file_remove_failed',
  'systemctl_failed',
  'check_failed',
  'command_failed',
  'file_missing',
  'backup_modified',
  'csr_failed',
  'packages_install_failed',
  'file_too_large',
] as const;
export type TaskCode = (typeof TASK_CODES)[number];

export const MAX_TASKS = 200;
export const MAX_INLINE_BYTES = 1 << 20;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;
const MODE = /^0?[0-7]{3}$/;
const TASK_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An absolute, normalised POSIX path: no "." or ".." segment, no empty segment, no trailing slash, no NUL. */
export function isCleanAbsolutePath(p: unknown): p is string {
  if (typeof p !== 'string' || !p.startsWith('/') || p.length > 4096 || p.includes('\0')) return false;
  const parts = p.split('/').slice(1);
  return parts.length > 0 && parts.every((s) => s !== '' && s !== '.' && s !== '..');
}

/** True when path is strictly inside one of the roots (each a clean absolute path). */
export function underRoots(path: string, roots: readonly string[]): boolean {
  return roots.some((r) => path.startsWith(`${r}/`));
}

/** File mode from a task's octal text, or the default. */
export const parseMode = (mode: string | undefined, fallback: number): number => (mode === undefined ? fallback : parseInt(mode, 8));

/**
 * Why args are not a valid plan, or null. `isUnit` says which unit names the caller manages (the wire's rule
 * is in node-agent.ts); `roots` are the managed roots paths must be inside.
 */
export function planProblem(args: unknown, roots: readonly string[], isUnit: (u: unknown) => boolean): string | null {
  if (!isObject(args) || !Array.isArray(args.tasks)) return 'a plan is {"tasks": [...]}';
  if (args.title !== undefined && (typeof args.title !== 'string' || args.title.length > 200))
    return 'title is text of at most 200 characters';
  if (args.tasks.length === 0) return 'a plan has at least one task';
  if (args.tasks.length > MAX_TASKS) return `a plan has at most ${MAX_TASKS} tasks`;
  const ids = new Set<string>();
  for (const [i, t] of args.tasks.entries()) {
    const problem = taskProblem(t, roots, isUnit);
    if (problem) return `task ${i}: ${problem}`;
    const id = (t as { id: string }).id;
    if (ids.has(id)) return `task ${i}: id ${id} is used twice`;
    ids.add(id);
  }
  return null;
}

function pathProblem(p: unknown, roots: readonly string[]): string | null {
  if (!isCleanAbsolutePath(p)) return 'path must be an absolute, normalised path';
  if (!underRoots(p, roots)) return `path ${p} is not under a managed root (${roots.join(', ')})`;
  return null;
}

const unitProblem = (unit: unknown, isUnit: (u: unknown) => boolean): string | null =>
  isUnit(unit) ? null : `unit ${String(unit)} is not a unit the agent manages (navin-<name>.service)`;

const secondsProblem = (name: string, v: unknown, min: number, max: number): string | null =>
  Number.isInteger(v) && (v as number) >= min && (v as number) <= max ? null : `${name} is a whole number of seconds from ${min} to ${max}`;

/** A check as a task carries it: {kind, params}, judged by the service checks' own table. */
function checkProblem(check: unknown): string | null {
  if (!isObject(check)) return 'check is {"kind", "params"}';
  const judged = checkParams(check.kind, check.params);
  return judged.ok ? null : `check: ${judged.message}`;
}

/** A watch's exporter: an http(s) URL of at most 2 KiB, and an absolute CA path with https. */
function scrapeProblem(scrape: unknown): string | null {
  if (scrape === undefined) return null;
  if (!isObject(scrape) || typeof scrape.url !== 'string' || scrape.url.length > 2048) return 'scrape is {"url", "ca_file"?}';
  let url: URL;
  try {
    url = new URL(scrape.url);
  } catch {
    return `scrape.url ${scrape.url} is not a URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'scrape.url is an http or https URL';
  if (scrape.ca_file !== undefined && !isCleanAbsolutePath(scrape.ca_file)) return 'scrape.ca_file is an absolute, normalised path';
  return null;
}

function taskProblem(t: unknown, roots: readonly string[], isUnit: (u: unknown) => boolean): string | null {
  if (!isObject(t)) return 'a task is an object';
  if (typeof t.id !== 'string' || !TASK_ID.test(t.id)) return 'id is 1-128 letters, digits, "_", ".", ":" or "-"';
  if (t.title !== undefined && (typeof t.title !== 'string' || t.title.length > 200)) return 'title is text of at most 200 characters';
  if (!(TASK_KINDS as readonly string[]).includes(t.kind as string)) return `kind must be one of ${TASK_KINDS.join(', ')}`;
  if (t.mode !== undefined && (typeof t.mode !== 'string' || !MODE.test(t.mode))) return 'mode is octal text such as "0644"';
  switch (t.kind as TaskKind) {
    case 'artifact.fetch': {
      if (typeof t.url !== 'string' || !/^https:\/\/[^\s]+$/.test(t.url)) return 'url must be an https:// URL';
      if (typeof t.digest !== 'string' || !DIGEST.test(t.digest)) return 'digest must be sha256:<64 hex>';
      if (t.ca_pem !== undefined && (typeof t.ca_pem !== 'string' || !t.ca_pem.includes('BEGIN CERTIFICATE')))
        return 'ca_pem is a PEM certificate';
      if (t.size !== undefined && (!Number.isSafeInteger(t.size) || (t.size as number) < 0)) return 'size is a byte count';
      return pathProblem(t.path, roots);
    }
    case 'file.write': {
      const text = typeof t.content === 'string';
      const b64 = typeof t.content_base64 === 'string';
      if (text === b64) return 'exactly one of content and content_base64 is given';
      if (b64 && !/^[A-Za-z0-9+/]*={0,2}$/.test(t.content_base64 as string)) return 'content_base64 is base64';
      if ((text ? (t.content as string).length : ((t.content_base64 as string).length * 3) / 4) > MAX_INLINE_BYTES)
        return `inline content is at most ${MAX_INLINE_BYTES} bytes (fetch larger files as artifacts)`;
      if (typeof t.sha256 !== 'string' || !SHA256_HEX.test(t.sha256)) return 'sha256 is 64 lowercase hex digits';
      return pathProblem(t.path, roots);
    }
    case 'file.remove':
    case 'file.read':
      return pathProblem(t.path, roots);
    case 'unit.write':
      if (!isUnit(t.unit)) return unitProblem(t.unit, isUnit);
      if (typeof t.content !== 'string' || t.content.length > MAX_INLINE_BYTES) return 'content is the unit file text';
      if (typeof t.sha256 !== 'string' || !SHA256_HEX.test(t.sha256)) return 'sha256 is 64 lowercase hex digits';
      return null;
    case 'unit.remove':
      return unitProblem(t.unit, isUnit);
    case 'systemd.daemon_reload':
      return null;
    case 'liveness.watch':
      return (
        unitProblem(t.unit, isUnit) ??
        secondsProblem('interval_s', t.interval_s, MIN_WATCH_INTERVAL_S, MAX_WATCH_INTERVAL_S) ??
        checkProblem(t.check) ??
        scrapeProblem(t.scrape)
      );
    case 'command.run': {
      if (!Array.isArray(t.argv) || t.argv.length === 0 || t.argv.length > 64) return 'argv is a list of 1-64 arguments';
      if (t.argv.some((a) => typeof a !== 'string' || a.length > 4096 || a.includes('\0'))) return 'each argument is text without NUL';
      const bin = t.argv[0] as string;
      const tool = (RUNNABLE_TOOLS as readonly string[]).includes(bin);
      if (!tool && (!isCleanAbsolutePath(bin) || !underRoots(bin, roots)))
        return `argv[0] ${bin} is neither a binary under a managed root nor one of ${RUNNABLE_TOOLS.join(', ')}`;
      return t.timeout_s === undefined ? null : secondsProblem('timeout_s', t.timeout_s, 1, MAX_COMMAND_TIMEOUT_S);
    }
    case 'files.hash': {
      if (!Array.isArray(t.paths) || t.paths.length === 0 || t.paths.length > 100) return 'paths is a list of 1-100 paths';
      for (const p of t.paths) {
        const problem = pathProblem(p, roots);
        if (problem) return problem;
      }
      return null;
    }
    case 'files.verify': {
      if (!isObject(t.files) || Object.keys(t.files).length === 0 || Object.keys(t.files).length > 100)
        return 'files is {"<path>": "<sha256>"} of 1-100 files';
      for (const [p, sha] of Object.entries(t.files)) {
        const problem = pathProblem(p, roots);
        if (problem) return problem;
        if (typeof sha !== 'string' || !SHA256_HEX.test(sha)) return `the sha256 of ${p} is 64 lowercase hex digits`;
      }
      return null;
    }
    case 'liveness.unwatch':
      return unitProblem(t.unit, isUnit);
    case 'tls.csr': {
      if (t.mode !== undefined) return 'a key is always written 0600: mode is not given';
      if (typeof t.rotate !== 'boolean') return 'rotate is true (make a new key) or false (keep a usable one)';
      const problem = csrNamesProblem(t) ?? pathProblem(t.key_path, roots);
      return problem && problem.replace(/^path/, 'key_path');
    }
    case 'packages.install': {
      if (!Array.isArray(t.packages) || t.packages.length === 0 || t.packages.length > MAX_PACKAGES)
        return `packages is a list of 1-${MAX_PACKAGES} {"name", "version", "path"}`;
      for (const p of t.packages as unknown[]) {
        if (!isObject(p) || typeof p.name !== 'string' || !DEB_NAME.test(p.name)) return 'each package has a Debian package name';
        if (typeof p.version !== 'string' || !DEB_VERSION.test(p.version)) return `the version of ${p.name} is a Debian version`;
        const problem = pathProblem(p.path, roots);
        if (problem) return `${p.name}: ${problem}`;
      }
      if (new Set((t.packages as { name: string }[]).map((p) => p.name)).size !== t.packages.length) return 'a package is named twice';
      if (
        t.disable_units !== undefined &&
        (!Array.isArray(t.disable_units) || t.disable_units.some((u) => typeof u !== 'string' || !SYSTEM_UNIT.test(u)))
      )
        return 'disable_units is a list of systemd service unit names';
      return null;
    }
    case 'check':
      return (
        (isObject(t.check) && t.retry_for_s !== undefined ? secondsProblem('retry_for_s', t.retry_for_s, 0, MAX_CHECK_RETRY_S) : null) ??
        checkProblem(t.check)
      );
    default:
      return unitProblem(t.unit, isUnit);
  }
}
