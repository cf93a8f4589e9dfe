// The internal mirror as the manager uses it: a client from the mirror settings, what the mirror holds, and
// bundle imports (one at a time), each recorded in the store with how it ended, audited, and reported live.
import type { Tables } from '../domain-tables';
import { randomUUID } from 'node:crypto';
import { mkdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve, sep } from 'node:path';
import type { Ed25519 } from '../../wire/ed25519';
import type { ImportProgress, ImportResult, MirrorImportView, MirrorInventory } from '../../contract/mirror';
import { importBundle } from './bundle-import';
import { BundleError } from './bundle-errors';
import { checkBundleItems, downgrades, movedTags, type Downgrade, type TagOrigin } from './bundle-admission';
import type { ReleaseKeys } from './release-keys';
import type { Catalog } from '../catalog/catalog';
import type { Clock } from '../clock';
import { CoreError, ValidationError } from '../errors';
import type { CoreEvents } from '../events';
import type { Store } from '../store/store';
import type { MirrorTables } from './mirror-tables';
import type { MirrorImportRow } from './mirror-tables';
import { mirrorInventory } from '../mirror/mirror-inventory';
import { MirrorError } from '../mirror/mirror-errors';
import { OciClient, type MirrorEndpoint } from '../mirror/oci-client';

/** Under the data dir: where a bundle is put to be imported over the network (the HTTPS API). */
export const IMPORT_DIR = 'imports';

export interface MirrorDeps {
  store: Store;
  tables: Tables<'mirror' | 'reports'>;
  clock: Clock;
  events: CoreEvents;
  releaseKeys: ReleaseKeys;
  ed25519: Ed25519;
  catalog: () => Catalog | null;
  /** The only folder an import asked over the network may read from (`<data dir>/imports`). */
  importDir: string;
}

export interface StartOptions {
  endpoint?: MirrorEndpoint;
  chunkSize?: number;
  onProgress?: (p: ImportProgress) => void;
  /** Let an older bundle move tags a newer one set (audited with each tag moved). */
  allowDowngrade?: boolean;
  /**
   * The caller is not on this machine's desktop (the HTTPS API): the file must be under `importDir`, so an
   * admin elsewhere cannot have the manager open whatever path its user can read.
   */
  confined?: boolean;
}

const alive = (pid: number): boolean => {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export class MirrorService {
  private readonly live = new Map<string, ImportProgress>();

  constructor(private readonly d: MirrorDeps) {
    d.tables.mirror.failInterrupted(d.clock.now().toISOString(), alive);
    mkdirSync(d.importDir, { recursive: true, mode: 0o700 });
  }

  /** The real path of `file`, refused unless it lies under the imports folder (links resolved first). */
  private confine(file: string): string {
    const root = realpathSync(this.d.importDir);
    let real: string;
    try {
      real = realpathSync(file);
    } catch {
      real = resolve(file); // missing: judged by its name, and then not found
    }
    if (!real.startsWith(root + sep))
      throw new CoreError(
        'import_path_not_allowed',
        `${file} is not under ${this.d.importDir}: over the network a bundle is imported only from that folder (copy it there first)`,
        { import_dir: this.d.importDir },
      );
    return real;
  }

  /** Which done import into this mirror set a tag to a digest (the latest that did). */
  private tagOrigin(mirrorUrl: string): TagOrigin {
    const done = this.d.tables.mirror
      .imports(500)
      .filter((r) => r.state === 'done' && r.mirror_url === mirrorUrl && r.result)
      .map((r) => JSON.parse(r.result!) as ImportResult);
    return (repository, tag, digest) => {
      const hit = done.find((r) => r.items.some((i) => i.repository === repository && i.tag === tag && i.digest === digest));
      return hit ? { bundle_id: hit.bundle_id, created_at: hit.created_at } : null;
    };
  }

  /** The configured mirror, or `mirror_not_configured`. */
  endpoint(): MirrorEndpoint {
    const s = this.d.tables.reports.mirror();
    if (!s.url)
      throw new MirrorError(
        'mirror_not_configured',
        'no internal mirror is configured (Settings, mirror URL; PUT /api/v1/settings/mirror)',
      );
    return { url: s.url, ca_pem: s.ca_pem };
  }

  client(endpoint: MirrorEndpoint = this.endpoint()): OciClient {
    return new OciClient(endpoint, { userAgent: 'navin-manager' });
  }

  async inventory(endpoint?: MirrorEndpoint): Promise<MirrorInventory> {
    const client = this.client(endpoint);
    try {
      return await mirrorInventory(client, this.d.catalog());
    } finally {
      client.close();
    }
  }

  imports(limit?: number): MirrorImportView[] {
    return this.d.tables.mirror.imports(limit).map((r) => this.view(r));
  }

  getImport(id: string): MirrorImportView | undefined {
    const r = this.d.tables.mirror.getImport(id);
    return r ? this.view(r) : undefined;
  }

  private view(r: MirrorImportRow): MirrorImportView {
    const { pid: _pid, result, ...rest } = r;
    return { ...rest, result: result ? (JSON.parse(result) as ImportResult) : null, progress: this.live.get(r.id) ?? null };
  }

  /**
   * Starts importing the bundle at `file` (a path on this workstation) and returns at once with the record;
   * `done` settles when the import ended (refused or failed imports resolve too, with their code).
   */
  start(file: string, actor: string, opts: StartOptions = {}): { import: MirrorImportView; done: Promise<MirrorImportView> } {
    if (!isAbsolute(file)) throw new ValidationError('path', 'path is the absolute path of the bundle file on this workstation');
    // Confined first, so that a refusal says nothing of whether a file outside the folder exists; the path
    // checked is the path read (links resolved), so a link swapped after the check reads nothing outside.
    const path = opts.confined ? this.confine(file) : file;
    try {
      if (!statSync(path).isFile()) throw new Error('not a file');
    } catch (error) {
      throw new CoreError('bundle_not_found', `${path} cannot be read: ${(error as Error).message}`);
    }
    const endpoint = opts.endpoint ?? this.endpoint();
    const { store, tables, clock } = this.d;
    const id = randomUUID();
    store.tx(() => {
      const running = tables.mirror.runningImport();
      if (running)
        throw new BundleError(
          'import_running',
          `an import is already running (${running.bundle_file}, started ${running.started_at}); wait for it to end`,
        );
      tables.mirror.insertImport({
        id,
        bundle_file: path,
        bundle_id: null,
        key_id: null,
        mirror_url: endpoint.url,
        state: 'running',
        code: null,
        message: null,
        result: null,
        started_by: actor,
        started_at: clock.now().toISOString(),
        finished_at: null,
        pid: process.pid,
      });
      store.audit.append({
        actor,
        action: 'mirror.import.start',
        cluster_id: null,
        target: id,
        details: { bundle_file: path, mirror_url: endpoint.url, allow_downgrade: opts.allowDowngrade === true },
      });
    });
    this.d.events.emit('mirror.import.changed', { id });
    const done = this.run(id, path, actor, endpoint, opts);
    return { import: this.getImport(id)!, done };
  }

  private async run(id: string, file: string, actor: string, endpoint: MirrorEndpoint, opts: StartOptions): Promise<MirrorImportView> {
    const { store, tables, clock, events } = this.d;
    const client = this.client(endpoint);
    let verified: { bundle_id: string; key_id: string } | null = null;
    let movedBack: Downgrade[] = [];
    let end: Parameters<MirrorTables['finishImport']>[1];
    try {
      const result = await importBundle({
        file,
        client,
        trustedKeys: this.d.releaseKeys.trusted(),
        impl: this.d.ed25519,
        chunkSize: opts.chunkSize,
        onVerified: (v) => (verified = { bundle_id: v.bundle_id, key_id: v.key_id }),
        admit: async (contents, c) => {
          checkBundleItems(contents, this.d.catalog());
          movedBack = downgrades(contents, await movedTags(contents, c), this.tagOrigin(endpoint.url));
          if (movedBack.length > 0 && !opts.allowDowngrade)
            throw new BundleError(
              'bundle_downgrade',
              `bundle ${contents.bundle_id} (made ${contents.created_at}) would move back ${movedBack
                .slice(0, 5)
                .map((d) => `${d.repository}:${d.tag} (set by bundle ${d.newer_bundle}, made ${d.newer_created_at})`)
                .join(', ')}; import it with --allow-downgrade (allow_downgrade) if that is meant`,
              { tags: movedBack.slice(0, 50) },
            );
        },
        onProgress: (p) => {
          this.live.set(id, p);
          opts.onProgress?.(p);
          events.emit('mirror.import.progress', { id, ...p });
        },
      });
      end = {
        state: 'done',
        code: null,
        message: `${result.items.length} tags pushed (${result.blobs_uploaded} blobs uploaded, ${result.blobs_present} already there)`,
        result: JSON.stringify(result),
        finished_at: clock.now().toISOString(),
        bundle_id: result.bundle_id,
        key_id: result.key_id,
      };
    } catch (error) {
      const coded = error instanceof CoreError;
      // A bundle the checks refuse is `refused`; the mirror or the disk failing under a good bundle is `failed`.
      const refused = error instanceof BundleError || (error instanceof MirrorError && error.code === 'digest_mismatch');
      end = {
        state: refused ? 'refused' : 'failed',
        code: coded ? error.code : 'internal',
        message: coded ? error.message : `the import failed: ${(error as Error)?.message ?? String(error)}`,
        result: null,
        finished_at: clock.now().toISOString(),
        bundle_id: (verified as { bundle_id: string } | null)?.bundle_id ?? null,
        key_id: (verified as { key_id: string } | null)?.key_id ?? null,
      };
    } finally {
      client.close();
      this.live.delete(id);
    }
    store.tx(() => {
      tables.mirror.finishImport(id, end);
      store.audit.append({
        actor,
        action: 'mirror.import',
        cluster_id: null,
        target: id,
        details: {
          outcome: end.state,
          code: end.code,
          bundle_id: end.bundle_id,
          key_id: end.key_id,
          bundle_file: file,
          // Each tag an allowed downgrade moved back, from which digest to which.
          ...(end.state === 'done' && movedBack.length > 0
            ? { downgraded: movedBack.map((d) => ({ repository: d.repository, tag: d.tag, from: d.from, to: d.to })) }
            : {}),
        },
      });
    });
    events.emit('mirror.import.changed', { id });
    return this.getImport(id)!;
  }
}
