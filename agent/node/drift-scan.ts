// drift.scan (read-only): every file and unit the agent wrote for the manager, looked at again as it is on disk
// now: still the bytes it wrote (ok), changed (modified), gone (deleted), or something else in its place, a
// symlink above all (replaced). Nothing is followed or changed; a folder on the way that turned into a symlink
// makes the path replaced too. A service's private key is judged by its public key and its mode.
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DriftItem, DriftScanResult, ManagedEntry } from '../../main/wire/node-agent';
import { UNIT_DIR } from '../../main/wire/node-agent';
import { KEY_MODE, parsePrivateKey, publicKeyDigest } from './service-key';

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

function look(prefix: string, path: string, kind: DriftItem['kind'], entry: ManagedEntry): DriftItem {
  const base = { path, kind, expected_sha256: entry.sha256, command_id: entry.command_id };
  const real = join(prefix, path);
  // A symlinked parent would let a read go elsewhere: judge the folders first, from the top.
  for (let dir = dirname(path); dir !== '/' && dir !== '.'; dir = dirname(dir)) {
    try {
      if (lstatSync(join(prefix, dir)).isSymbolicLink())
        return { ...base, state: 'replaced', observed_sha256: null, detail: `${dir} is a symlink to ${readlinkSync(join(prefix, dir))}` };
    } catch {
      break;
    }
  }
  let st;
  try {
    st = lstatSync(real);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ...base, state: 'deleted', observed_sha256: null };
    return { ...base, state: 'replaced', observed_sha256: null, detail: (error as Error).message };
  }
  if (st.isSymbolicLink()) return { ...base, state: 'replaced', observed_sha256: null, detail: `a symlink to ${readlinkSync(real)}` };
  if (!st.isFile()) return { ...base, state: 'replaced', observed_sha256: null, detail: 'not a regular file' };
  if (entry.private_key) return lookKey(base, readFileSync(real), st.mode);
  const observed = sha256(readFileSync(real));
  return { ...base, state: observed === entry.sha256 ? 'ok' : 'modified', observed_sha256: observed };
}

/** A key (tls.csr) is the same while its public key is, and only while no one but root may read it. */
function lookKey(base: Omit<DriftItem, 'state' | 'observed_sha256'>, data: Buffer, mode: number): DriftItem {
  const key = parsePrivateKey(data);
  if (!key) return { ...base, state: 'modified', observed_sha256: null, detail: 'not a private key' };
  const observed = publicKeyDigest(key).sha256;
  if (observed !== base.expected_sha256) return { ...base, state: 'modified', observed_sha256: observed };
  if ((mode & 0o777) !== KEY_MODE)
    return {
      ...base,
      state: 'modified',
      observed_sha256: observed,
      detail: `mode ${(mode & 0o777).toString(8).padStart(4, '0')}, not 0600`,
    };
  return { ...base, state: 'ok', observed_sha256: observed };
}

export function driftScan(
  prefix: string,
  managed: { files: Record<string, ManagedEntry>; units: Record<string, ManagedEntry> },
): DriftScanResult {
  const items = [
    ...Object.entries(managed.files).map(([path, e]) => look(prefix, path, 'file', e)),
    ...Object.entries(managed.units).map(([unit, e]) => look(prefix, `${UNIT_DIR}/${unit}`, 'unit', e)),
  ].sort((a, b) => a.path.localeCompare(b.path));
  return { scanned_at: new Date().toISOString(), items };
}
