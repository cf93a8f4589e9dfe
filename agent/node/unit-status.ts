// What systemd says of the managed units when the agent reports: state, main PID, since when it is active, the
// restarts it made on its own, and the cgroup's memory and CPU time (the main process's own figures from /proc
// where the cgroup is not accounted). Read with one `systemctl show` for all units, so a unit stopped by hand is
// seen as stopped at the next report, whatever a plan last asked of it.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { UnitObservation } from '../../main/wire/node-agent';
import { USER_HZ } from './host-metrics';

const run = promisify(execFile);

const PROPERTIES = [
  'Id',
  'LoadState',
  'ActiveState',
  'SubState',
  'MainPID',
  'ActiveEnterTimestamp',
  'NRestarts',
  'MemoryCurrent',
  'CPUUsageNSec',
] as const;

/** systemd prints an unset counter as [not set] or 2^64-1; either is "not accounted". */
function counter(v: string | undefined): number | null {
  if (v === undefined || v === '' || v === '[not set]' || v === '18446744073709551615') return null;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/** `ActiveEnterTimestamp=@1733350205` (--timestamp=unix): seconds since the epoch; empty when never active. */
function timestamp(v: string | undefined): string | null {
  const m = /^@(\d+)$/.exec(v ?? '');
  return m ? new Date(Number(m[1]) * 1000).toISOString() : null;
}

/** Parses `systemctl show` output: blocks separated by a blank line, one per unit, in the order asked. */
export function parseShow(text: string): Record<string, UnitObservation> {
  const out: Record<string, UnitObservation> = {};
  for (const block of text.split(/\n\s*\n/)) {
    const p: Record<string, string> = {};
    for (const line of block.split('\n')) {
      const eq = line.indexOf('=');
      if (eq > 0) p[line.slice(0, eq)] = line.slice(eq + 1);
    }
    if (!p.Id) continue;
    const active = p.ActiveState ?? 'unknown';
    const pid = counter(p.MainPID);
    out[p.Id] = {
      load_state: p.LoadState ?? 'unknown',
      active_state: active,
      sub_state: p.SubState ?? 'unknown',
      main_pid: pid && pid > 0 ? pid : null,
      active_since: active === 'active' || active === 'reloading' ? timestamp(p.ActiveEnterTimestamp) : null,
      restarts: counter(p.NRestarts),
      memory_bytes: counter(p.MemoryCurrent),
      cpu_ns: counter(p.CPUUsageNSec),
    };
  }
  return out;
}

/**
 * The main process's resident memory and CPU time, for a unit whose cgroup systemd does not account (a container
 * without the memory or cpu controller delegated). Null when the process is gone.
 */
export function processFigures(pid: number, proc = '/proc'): { memory_bytes: number | null; cpu_ns: number | null } {
  let memory_bytes: number | null = null;
  let cpu_ns: number | null = null;
  try {
    const rss = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`${proc}/${pid}/status`, 'utf8'));
    if (rss) memory_bytes = Number(rss[1]) * 1024;
  } catch {
    // gone
  }
  try {
    const stat = readFileSync(`${proc}/${pid}/stat`, 'utf8');
    // After "(comm)", which may hold spaces: state is field 3, utime and stime fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    if (Number.isFinite(ticks)) cpu_ns = (ticks / USER_HZ) * 1e9;
  } catch {
    // gone
  }
  return { memory_bytes, cpu_ns };
}

/** Each unit as systemd has it now; {} when there is none or systemctl cannot be run (the report says nothing). */
export async function readUnits(units: string[], systemctl = 'systemctl'): Promise<Record<string, UnitObservation>> {
  if (units.length === 0) return {};
  // --timestamp=unix prints ActiveEnterTimestamp as @<seconds>, which needs no time zone to read.
  const r = await run(systemctl, ['show', '--timestamp=unix', `--property=${PROPERTIES.join(',')}`, '--', ...units], {
    timeout: 10_000,
  }).catch(() => null);
  if (!r) return {};
  const observed = parseShow(r.stdout);
  for (const o of Object.values(observed)) {
    if (o.main_pid === null || (o.memory_bytes !== null && o.cpu_ns !== null)) continue;
    const p = processFigures(o.main_pid);
    o.memory_bytes ??= p.memory_bytes;
    o.cpu_ns ??= p.cpu_ns;
  }
  return observed;
}
