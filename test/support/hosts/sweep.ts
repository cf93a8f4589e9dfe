// Removes what crashed suites left: their hosts' processes, veth ends, bridges, control groups, overlays and
// directories. A subnet is swept only while its lock is held by the sweeper, which succeeds only when its
// owner is gone, so a live suite of another worker is never touched.
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostCgroupNames, killHostCgroup, removeHostCgroup } from './cgroups';
import { acquireLock } from './lock';
import { defaultSuiteDir, lockPath, machineSubnet, readNote, STATE_DIR } from './claims';
import { nspawnRunDir } from './host';
import { deleteLink, linkNames, subnet as subnetOf } from './network';
import { removeTree } from './system';

const PROPAGATE_DIR = '/run/systemd/nspawn/propagate';

function names(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Subnets that something of ours still uses or names. */
async function candidateSubnets(): Promise<Set<number>> {
  const found = new Set<number>();
  const add = (n: number | undefined) => n !== undefined && n < 512 && found.add(n);
  for (const n of names(STATE_DIR)) {
    // A suite that closed cleanly empties its note; a non-empty one names an owner that may have crashed.
    const m = /^nvb(\d+)\.lock$/.exec(n);
    if (m && statSync(join(STATE_DIR, n)).size > 0) add(Number(m[1]));
  }
  for (const l of await linkNames()) {
    const b = /^nvb(\d+)$/.exec(l);
    if (b) add(Number(b[1]));
    if (l.startsWith('vb-')) add(machineSubnet(l.slice(3)));
  }
  for (const c of hostCgroupNames()) add(machineSubnet(c));
  for (const p of names(PROPAGATE_DIR)) add(machineSubnet(p));
  for (const d of names(tmpdir())) {
    const m = /^navin-hosts-nvb(\d+)$/.exec(d);
    if (m) add(Number(m[1]));
  }
  return found;
}

/**
 * Everything named after a subnet, removed. The caller must hold the subnet's lock. Used by the sweep and
 * by a suite that has just claimed a subnet a crashed suite left dirty.
 */
export async function teardownSubnet(n: number): Promise<boolean> {
  const note = readNote(n);
  const bridge = subnetOf(n).bridge;
  const links = await linkNames();
  const machines = new Set<string>();
  for (const c of hostCgroupNames()) if (machineSubnet(c) === n) machines.add(c);
  for (const l of links) if (l.startsWith('vb-') && machineSubnet(l.slice(3)) === n) machines.add(l.slice(3));
  for (const p of names(PROPAGATE_DIR)) if (machineSubnet(p) === n) machines.add(p);
  const dirs = [...new Set([note?.dir, defaultSuiteDir(n)].filter((d): d is string => !!d))].filter((d) => existsSync(d));
  const dirty = machines.size > 0 || links.includes(bridge) || dirs.length > 0;

  // Killing the group kills the container's PID 1 and so its whole PID namespace; nspawn is in the group too.
  await Promise.all([...machines].map((m) => killHostCgroup(m)));
  for (const m of machines) {
    await deleteLink(`vb-${m}`);
    removeHostCgroup(m);
    await rm(nspawnRunDir(m), { recursive: true, force: true });
  }
  if (links.includes(bridge)) await deleteLink(bridge);
  for (const d of dirs) await removeTree(d);
  return dirty;
}

export interface SweepResult {
  /** Subnets whose leftovers were removed. */
  swept: number[];
  /** Subnets skipped because a live suite holds them. */
  live: number[];
}

export async function sweepStaleHosts(): Promise<SweepResult> {
  const result: SweepResult = { swept: [], live: [] };
  mkdirSync(STATE_DIR, { recursive: true, mode: 0o700 });
  for (const n of [...(await candidateSubnets())].sort((a, b) => a - b)) {
    const lock = await acquireLock(lockPath(n));
    if (!lock) {
      result.live.push(n);
      continue;
    }
    try {
      if (await teardownSubnet(n)) result.swept.push(n);
      lock.note('');
    } finally {
      await lock.release();
    }
  }
  return result;
}
