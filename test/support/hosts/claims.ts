// Which suite owns which subnet. A suite holds the lock of its subnet for as long as it lives; everything
// it creates is named after that subnet (bridge nvb<N>, machines nvh<N>h<i>, directory navin-hosts-nvb<N>),
// so whoever holds the lock may remove all of it, and nobody else may.
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireLock, type HeldLock } from './lock';
import { SUBNETS } from './network';

/** Runtime state shared by every process on the machine, whatever its TMPDIR. */
export const STATE_DIR = '/run/navin-test-hosts';

export const MACHINE_PREFIX = 'nvh';
export const machineName = (subnet: number, i: number) => `${MACHINE_PREFIX}${subnet}h${i}`;
/** The subnet a machine name belongs to, or undefined for a name that is not ours. */
export function machineSubnet(name: string): number | undefined {
  const m = /^nvh(\d{1,3})h\d{1,2}$/.exec(name);
  return m ? Number(m[1]) : undefined;
}

export const suiteDirName = (subnet: number) => `navin-hosts-nvb${subnet}`;
export const lockPath = (subnet: number) => join(STATE_DIR, `nvb${subnet}.lock`);

export interface ClaimNote {
  pid: number;
  dir: string;
  started_at: string;
}

export function defaultSuiteDir(subnet: number): string {
  return join(tmpdir(), suiteDirName(subnet));
}

/** Takes the lowest free subnet (few lock files, and addresses that read the same from run to run). */
export async function claimSubnet(): Promise<{ subnet: number; lock: HeldLock } | undefined> {
  mkdirSync(STATE_DIR, { recursive: true, mode: 0o700 });
  for (let subnet = 0; subnet < SUBNETS; subnet++) {
    const lock = await acquireLock(lockPath(subnet));
    if (lock) return { subnet, lock };
  }
  return undefined;
}

/** The note the last owner of a lock left, read by whoever holds the lock now. */
export function readNote(subnet: number): ClaimNote | undefined {
  try {
    const n = JSON.parse(readFileSync(lockPath(subnet), 'utf8')) as ClaimNote;
    return typeof n.dir === 'string' ? n : undefined;
  } catch {
    return undefined;
  }
}
