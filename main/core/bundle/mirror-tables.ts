// SQL for the offline-bundle side of the mirror: the release keys trusted to sign bundles, and the imports.
import type { MirrorImportView, TrustedReleaseKey } from '../../contract/mirror';
import type { Db } from '../store/database';
import { insertSql } from '../store/insert-sql';

/** A trusted release key as stored: the raw 32-byte public key where the view has its PEM. */
export type ReleaseKeyRow = Omit<TrustedReleaseKey, 'public_key_pem'> & { public_key: Buffer };

/**
 * An import as stored: what was pushed (tags, digests, bytes) as JSON, and the process that runs it (an import
 * left running by a process that is gone did not finish); the live progress is the process's own.
 */
export type MirrorImportRow = Omit<MirrorImportView, 'result' | 'progress'> & { result: string | null; pid: number };

export class MirrorTables {
  constructor(private readonly db: Db) {}

  releaseKeys(): ReleaseKeyRow[] {
    return this.db.prepare('SELECT * FROM release_keys ORDER BY added_at, key_id').all() as ReleaseKeyRow[];
  }

  insertReleaseKey(row: ReleaseKeyRow): boolean {
    return (
      this.db
        .prepare(
          'INSERT INTO release_keys (key_id, public_key, label, added_at, added_by) VALUES (@key_id, @public_key, @label, @added_at, @added_by) ON CONFLICT DO NOTHING',
        )
        .run(row).changes === 1
    );
  }

  deleteReleaseKey(keyId: string): boolean {
    return this.db.prepare('DELETE FROM release_keys WHERE key_id = ?').run(keyId).changes === 1;
  }

  insertImport(row: MirrorImportRow): void {
    this.db
      .prepare(
        insertSql(
          'mirror_imports',
          'id, bundle_file, bundle_id, key_id, mirror_url, state, code, message, result, started_by, started_at, finished_at, pid',
        ),
      )
      .run(row);
  }

  finishImport(
    id: string,
    end: Pick<MirrorImportRow, 'state' | 'code' | 'message' | 'result' | 'finished_at' | 'bundle_id' | 'key_id'>,
  ): void {
    this.db
      .prepare(
        `UPDATE mirror_imports SET state = @state, code = @code, message = @message, result = @result, finished_at = @finished_at,
           bundle_id = COALESCE(@bundle_id, bundle_id), key_id = COALESCE(@key_id, key_id) WHERE id = @id AND state = 'running'`,
      )
      .run({ id, ...end });
  }

  /** Imports left running by a process that is gone (`alive(pid)` false): they did not finish, and say so. */
  failInterrupted(at: string, alive: (pid: number) => boolean): number {
    const rows = this.db.prepare("SELECT id, pid FROM mirror_imports WHERE state = 'running'").all() as { id: string; pid: number }[];
    const fail = this.db.prepare(
      `UPDATE mirror_imports SET state = 'failed', code = 'import_interrupted', message = 'the manager stopped during the import; import the bundle again', finished_at = ? WHERE id = ? AND state = 'running'`,
    );
    let n = 0;
    for (const r of rows) if (!alive(r.pid)) n += fail.run(at, r.id).changes;
    return n;
  }

  runningImport(): MirrorImportRow | undefined {
    return this.db.prepare("SELECT * FROM mirror_imports WHERE state = 'running' ORDER BY started_at LIMIT 1").get() as
      MirrorImportRow | undefined;
  }

  getImport(id: string): MirrorImportRow | undefined {
    return this.db.prepare('SELECT * FROM mirror_imports WHERE id = ?').get(id) as MirrorImportRow | undefined;
  }

  imports(limit = 50): MirrorImportRow[] {
    return this.db
      .prepare('SELECT * FROM mirror_imports ORDER BY started_at DESC, id LIMIT ?')
      .all(Math.min(Math.max(limit, 1), 500)) as MirrorImportRow[];
  }
}
