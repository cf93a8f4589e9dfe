// Where a plan may write on the host: files strictly inside the managed roots of the signed config, and units
// navin-*.service in the systemd folder. A symlink on the way is refused (it could lead outside a root), and
// every write is a temp file synced and renamed, so a reader sees the old file or the new one, never half.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isManagedUnit, UNIT_DIR } from '../../main/wire/node-agent';
import { isCleanAbsolutePath, underRoots } from '../../main/wire/plan';
import { ExecutionError } from '../commands';
import { syncDir } from '../atomic-file';

// Shared with the cluster agent's code, which may not import the node agent's: both write their files this way.
export { syncDir, writeAtomic } from '../atomic-file';

export const sha256Hex = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

export class ManagedFs {
  /**
   * @param prefix where the host's "/" is for this agent: "/" on a host, a folder in tests
   * @param roots the managed roots of the signed config
   */
  constructor(
    private readonly prefix: string,
    readonly roots: readonly string[],
  ) {}

  /** The real path of a managed file, its parent folders created; throws path_not_managed. */
  filePath(path: string): string {
    const root = this.rootOf(path);
    try {
      this.walkDirs(root, dirname(path), true);
    } catch (error) {
      if (error instanceof ExecutionError) throw error;
      throw new ExecutionError('file_write_failed', `cannot create the folders of ${path}: ${(error as Error).message}`);
    }
    return join(this.prefix, path);
  }

  /**
   * The real path of a managed file to read or run, nothing created; throws path_not_managed. A folder on the
   * way that is a symlink is refused, as for a write: a service user who may write under its data folder could
   * otherwise lead a hash read, or a binary run as root, outside the roots.
   */
  readPath(path: string): string {
    this.walkDirs(this.rootOf(path), dirname(path), false);
    return join(this.prefix, path);
  }

  /** The managed root a path is under; throws path_not_managed. */
  private rootOf(path: string): string {
    if (!isCleanAbsolutePath(path) || !underRoots(path, this.roots))
      throw new ExecutionError('path_not_managed', `${path} is not under a managed root (${this.roots.join(', ')})`);
    return this.roots.find((r) => path.startsWith(`${r}/`))!;
  }

  /** Throws unit_not_managed for a unit outside navin-*.service (or the agent's own). */
  assertUnit(unit: string): void {
    if (!isManagedUnit(unit)) throw new ExecutionError('unit_not_managed', `${unit} is not a unit this agent manages (navin-*.service)`);
  }

  /** The real path of a unit file; throws unit_not_managed. */
  unitPath(unit: string): string {
    this.assertUnit(unit);
    mkdirSync(join(this.prefix, UNIT_DIR), { recursive: true, mode: 0o755 });
    return join(this.prefix, UNIT_DIR, unit);
  }

  /**
   * Checks the folders from the root down to dir, refusing any symlink or non-folder on the way; a missing one is
   * created when `create`, else it ends the walk (nothing below it can be read).
   */
  private walkDirs(root: string, dir: string, create: boolean): void {
    const rel = dir.slice(root.length).split('/').filter(Boolean);
    let at = root;
    for (const part of [null, ...rel]) {
      if (part !== null) at = `${at}/${part}`;
      const real = join(this.prefix, at);
      let st;
      try {
        st = lstatSync(real);
      } catch (error) {
        if (!create) return;
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        // The root itself may need its system parents (/opt) on a fresh host; below it, one folder at a time.
        mkdirSync(real, { mode: 0o755, recursive: part === null });
        continue;
      }
      if (st.isSymbolicLink() || !st.isDirectory())
        throw new ExecutionError('path_not_managed', `${at} is ${st.isSymbolicLink() ? 'a symlink' : 'not a folder'}: refused`);
    }
  }
}

/** Removes a managed file or unit; a symlink is removed itself, never followed. Returns whether it existed. */
export function removeFile(real: string): boolean {
  try {
    const st = lstatSync(real);
    if (st.isDirectory()) throw new ExecutionError('file_remove_failed', `${real} is a folder: only files are removed`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  rmSync(real, { force: true });
  syncDir(dirname(real));
  return true;
}
