// Each kind of plan task, carried out on the host: what it does, what it records (a file or unit with its
// sha256), and the output it reports. A failure throws ExecutionError with the task's code.
import { execFile } from 'node:child_process';
import { lstatSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { ManagedEntry } from '../../main/wire/node-agent';
import { MAX_INLINE_BYTES, parseMode, type PlanTask, type SystemctlTask, type TlsCsrTask } from '../../main/wire/plan';
import type { CheckOutcome } from '../../main/wire/service-checks';
import { ExecutionError } from '../commands';
import { certificationRequestPem } from '../csr';
import { fetchArtifact } from './fetch-artifact';
import { installPackages } from './packages-install';
import type { NodeState } from './file-state';
import { removeFile, sha256Hex, writeAtomic, type ManagedFs } from './managed-fs';
import { keepableKey, KEY_MODE, newRsaKey, parsePrivateKey, publicKeyDigest } from './service-key';

const run = promisify(execFile);
/** Between two runs of a check that may retry (a service still starting). */
const CHECK_RETRY_PAUSE_MS = 500;

/** Runs a liveness, readiness or functional check (agent/checks' runCheck): an outcome, never a throw. */
export type CheckHook = (check: { kind: string; params: Record<string, unknown> }) => Promise<CheckOutcome>;

export interface TaskContext {
  fs: ManagedFs;
  commandId: string;
  systemctl: string;
  runCheck: CheckHook;
}

export interface TaskDone {
  output: Record<string, unknown>;
  /** Applied to the state in the same write as the task's outcome. */
  record?: (s: NodeState) => void;
}

const VERB: Record<SystemctlTask, string> = {
  'systemd.enable': 'enable',
  'systemd.disable': 'disable',
  'systemd.start': 'start',
  'systemd.stop': 'stop',
  'systemd.restart': 'restart',
};

async function systemctl(bin: string, args: string[]): Promise<string> {
  try {
    const r = await run(bin, args, { timeout: 120_000, maxBuffer: 1 << 20 });
    return `${r.stdout}${r.stderr}`.trim();
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; code?: unknown; message: string };
    const detail = (e.stderr || e.stdout || e.message).trim().slice(0, 2000);
    throw new ExecutionError('systemctl_failed', `systemctl ${args.join(' ')} failed (${String(e.code ?? 'error')}): ${detail}`);
  }
}

/** The unit's state as systemd sees it, for the task's output. */
async function unitState(bin: string, unit: string): Promise<Record<string, string>> {
  const text = await systemctl(bin, ['show', unit, '-p', 'ActiveState,SubState,UnitFileState,InvocationID,MainPID']).catch(() => '');
  return Object.fromEntries(
    text
      .split('\n')
      .map((l) => l.split('='))
      .filter((kv) => kv.length >= 2)
      .map(([k, ...v]) => [k!, v.join('=')]),
  );
}

const entry = (data: Buffer, commandId: string): ManagedEntry => ({
  sha256: sha256Hex(data),
  size: data.length,
  command_id: commandId,
  written_at: new Date().toISOString(),
});

/** sha256 and size of a regular file (never through a symlink), or null when there is none. */
function hashFile(real: string): { sha256: string; size: number } | null {
  try {
    if (!lstatSync(real).isFile()) return null;
    const data = readFileSync(real);
    return { sha256: sha256Hex(data), size: data.length };
  } catch {
    return null;
  }
}

/** Runs argv without a shell; a binary under a managed root is resolved there (the prefix of tests included). */
async function runCommand(argv: string[], managedPath: (p: string) => string, timeoutS: number): Promise<Record<string, unknown>> {
  const bin = argv[0]!.startsWith('/') ? managedPath(argv[0]!) : argv[0]!;
  try {
    const r = await run(bin, argv.slice(1), { timeout: timeoutS * 1000, maxBuffer: 8 << 20 });
    return { argv, exit_code: 0, stdout: r.stdout.slice(-4000), stderr: r.stderr.slice(-4000) };
  } catch (error) {
    const e = error as { code?: unknown; signal?: unknown; stderr?: string; stdout?: string; message: string };
    const detail = (e.stderr || e.stdout || e.message).trim().slice(-2000);
    throw new ExecutionError('command_failed', `${argv.join(' ')} failed (${String(e.signal ?? e.code ?? 'error')}): ${detail}`, {
      argv,
      exit_code: typeof e.code === 'number' ? e.code : null,
      stderr: (e.stderr ?? '').slice(-4000),
    });
  }
}

/**
 * tls.csr: the key kept or made, its request built before a new key replaces the old one on disk, so a failure
 * leaves the previous key whole. The key's entry describes its public half (ManagedEntry.private_key); a kept
 * key keeps the entry of the command that wrote it.
 */
async function tlsCsr(task: TlsCsrTask, fs: ManagedFs, commandId: string): Promise<TaskDone> {
  const real = fs.filePath(task.key_path);
  const kept = task.rotate ? null : keepableKey(real);
  let pem: string;
  let csrPem: string;
  try {
    pem = kept?.pem ?? (await newRsaKey());
    csrPem = certificationRequestPem(pem, task);
  } catch (error) {
    throw new ExecutionError('csr_failed', `cannot make the key or the request for ${task.key_path}: ${(error as Error).message}`);
  }
  if (!kept)
    try {
      writeAtomic(real, Buffer.from(pem, 'utf8'), KEY_MODE);
    } catch (error) {
      throw new ExecutionError('file_write_failed', `cannot write ${task.key_path}: ${(error as Error).message}`);
    }
  const digest = publicKeyDigest(kept?.key ?? parsePrivateKey(pem)!);
  const e: ManagedEntry = { ...digest, command_id: commandId, written_at: new Date().toISOString(), private_key: true };
  return {
    output: { key_path: task.key_path, key: kept ? 'kept' : 'generated', public_key_sha256: digest.sha256, csr_pem: csrPem },
    record: (s) => {
      const before = s.managed.files[task.key_path];
      if (!kept || before?.private_key !== true || before.sha256 !== digest.sha256) s.managed.files[task.key_path] = e;
    },
  };
}

export async function runTask(task: PlanTask, ctx: TaskContext): Promise<TaskDone> {
  switch (task.kind) {
    case 'file.write': {
      const data = task.content !== undefined ? Buffer.from(task.content, 'utf8') : Buffer.from(task.content_base64!, 'base64');
      const sha = sha256Hex(data);
      if (sha !== task.sha256) throw new ExecutionError('content_mismatch', `the content hashes to ${sha}, not the signed ${task.sha256}`);
      const real = ctx.fs.filePath(task.path);
      try {
        writeAtomic(real, data, parseMode(task.mode, 0o644));
      } catch (error) {
        throw new ExecutionError('file_write_failed', `cannot write ${task.path}: ${(error as Error).message}`);
      }
      const e = entry(data, ctx.commandId);
      return { output: { path: task.path, sha256: sha, size: data.length }, record: (s) => void (s.managed.files[task.path] = e) };
    }
    case 'file.remove': {
      const existed = removeFile(ctx.fs.filePath(task.path));
      return { output: { path: task.path, existed }, record: (s) => void delete s.managed.files[task.path] };
    }
    case 'artifact.fetch': {
      const real = ctx.fs.filePath(task.path);
      const got = await fetchArtifact(task, real, parseMode(task.mode, 0o644));
      const e: ManagedEntry = { sha256: got.sha256, size: got.size, command_id: ctx.commandId, written_at: new Date().toISOString() };
      return {
        output: { path: task.path, digest: task.digest, size: got.size, url: got.url },
        record: (s) => void (s.managed.files[task.path] = e),
      };
    }
    case 'unit.write': {
      const data = Buffer.from(task.content, 'utf8');
      const sha = sha256Hex(data);
      if (sha !== task.sha256) throw new ExecutionError('content_mismatch', `the unit hashes to ${sha}, not the signed ${task.sha256}`);
      const real = ctx.fs.unitPath(task.unit);
      try {
        writeAtomic(real, data, 0o644);
      } catch (error) {
        throw new ExecutionError('file_write_failed', `cannot write unit ${task.unit}: ${(error as Error).message}`);
      }
      const e = entry(data, ctx.commandId);
      return { output: { unit: task.unit, sha256: sha, size: data.length }, record: (s) => void (s.managed.units[task.unit] = e) };
    }
    case 'unit.remove': {
      const existed = removeFile(ctx.fs.unitPath(task.unit));
      return { output: { unit: task.unit, existed }, record: (s) => void delete s.managed.units[task.unit] };
    }
    case 'systemd.daemon_reload':
      await systemctl(ctx.systemctl, ['daemon-reload']);
      return { output: { reloaded: true } };
    case 'command.run':
      return { output: await runCommand(task.argv, (p) => ctx.fs.readPath(p), task.timeout_s ?? 600) };
    case 'files.hash': {
      const files: Record<string, { sha256: string; size: number }> = {};
      for (const p of task.paths) {
        const got = hashFile(ctx.fs.readPath(p));
        if (!got) throw new ExecutionError('file_missing', `${p} is not there to hash`);
        files[p] = got;
      }
      return { output: { files } };
    }
    case 'files.verify': {
      const differing = Object.entries(task.files)
        .map(([p, expected]) => ({ path: p, expected, observed: hashFile(ctx.fs.readPath(p))?.sha256 ?? null }))
        .filter((f) => f.observed !== f.expected);
      if (differing.length > 0)
        throw new ExecutionError(
          'backup_modified',
          `${differing.map((f) => f.path).join(', ')} ${differing.length === 1 ? 'is' : 'are'} not as recorded`,
          {
            differing,
          },
        );
      return { output: { verified: Object.keys(task.files).length } };
    }
    case 'file.read': {
      const real = ctx.fs.readPath(task.path);
      let stat;
      try {
        stat = lstatSync(real);
      } catch {
        throw new ExecutionError('file_missing', `${task.path} is not there to read`);
      }
      if (!stat.isFile()) throw new ExecutionError('file_missing', `${task.path} is not a regular file`);
      // Checked before reading: a large file is refused without being loaded.
      if (stat.size > MAX_INLINE_BYTES)
        throw new ExecutionError('file_too_large', `${task.path} is ${stat.size} bytes, over the ${MAX_INLINE_BYTES} a plan can carry`);
      const data = readFileSync(real);
      return { output: { path: task.path, sha256: sha256Hex(data), size: data.length, content_base64: data.toString('base64') } };
    }
    case 'tls.csr':
      return tlsCsr(task, ctx.fs, ctx.commandId);
    case 'packages.install':
      return { output: await installPackages(task, { readPath: (p) => ctx.fs.readPath(p), systemctl: ctx.systemctl }) };
    case 'liveness.watch': {
      ctx.fs.assertUnit(task.unit);
      const watch = {
        check: task.check,
        interval_s: task.interval_s,
        command_id: ctx.commandId,
        ...(task.scrape ? { scrape: task.scrape } : {}),
      };
      return {
        output: { unit: task.unit, watching: task.check.kind, interval_s: task.interval_s },
        record: (s) => void (s.watches[task.unit] = watch),
      };
    }
    case 'liveness.unwatch':
      return { output: { unit: task.unit, watching: null }, record: (s) => void delete s.watches[task.unit] };
    case 'check': {
      const deadline = performance.now() + (task.retry_for_s ?? 0) * 1000;
      let outcome = await ctx.runCheck(task.check);
      let attempts = 1;
      while (outcome.status !== 'pass' && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, CHECK_RETRY_PAUSE_MS));
        outcome = await ctx.runCheck(task.check);
        attempts++;
      }
      if (attempts > 1) outcome = { ...outcome, evidence: { ...outcome.evidence, attempts } };
      if (outcome.status !== 'pass')
        throw new ExecutionError('check_failed', outcome.error?.message ?? `check ${task.check.kind} failed`, { check: outcome });
      return { output: { check: outcome } };
    }
    default: {
      const unit = task.unit;
      ctx.fs.assertUnit(unit);
      // A signed start is an operator's decision, not a restart loop: systemd's start rate limit (five starts in
      // ten seconds by default) must not refuse it, so its counter and any failed state are cleared first, as
      // an operator would by hand. A unit systemd has not loaded has no counter, and reset-failed refuses it: that
      // refusal is ignored, and anything really wrong with the unit is the start's to report.
      if (task.kind === 'systemd.start' || task.kind === 'systemd.restart')
        await systemctl(ctx.systemctl, ['reset-failed', unit]).catch(() => undefined);
      const said = await systemctl(ctx.systemctl, [VERB[task.kind], unit]);
      return { output: { unit, systemctl: said || null, ...(await unitState(ctx.systemctl, unit)) } };
    }
  }
}
