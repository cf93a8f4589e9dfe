// Configuration backups of a cluster: every ManagedComponent read live with the import identity, plus the
// signed desired state, one JSON file each, with each file's sha256 recorded. Allowed under a blocked profile.
import type { Tables } from '../domain-tables';
import { createHash, randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CustomObjectsApi } from '@kubernetes/client-node';
import type { Clock } from '../clock';
import type { CoreEvents } from '../events';
import type { Registration } from '../clusters/registration';
import { CoreError } from '../errors';
import { writeFileAtomic } from '../fsutil/atomic-write';
import { classifyKubeError, kubeConfigFor } from '../kubernetes/kube-client';
import { API_GROUP, API_VERSION, MANAGED_COMPONENT_PLURAL } from '../kubernetes/names';
import { DNS1123_SUBDOMAIN } from '../clusters/names';
import { KUBE_READ_TIMEOUT_MS, withTimeout } from '../checks/component-checks';
import type { BackupFileRecord, BackupSetRecord } from '../lifecycle/lifecycle-tables';
import type { BackupFile, BackupFileCheck, BackupSet, BackupVerification } from '../../contract/backups';
import type { Store } from '../store/store';

export const BACKUPS_DIR = 'backups';
export const DESIRED_STATE_FILE = 'desired-state.json';

/** A set as listed: the contract's view (its files with their recorded sha256). */
export type BackupSetView = BackupSet;

export interface BackupsDeps {
  store: Store;
  tables: Tables<'clusters' | 'commands' | 'lifecycle'>;
  registration: Registration;
  clock: Clock;
  dataDir: string;
  events: CoreEvents;
  timeoutMs?: number;
}

interface KubeObject {
  metadata?: { name?: string; managedFields?: unknown } & Record<string, unknown>;
  [key: string]: unknown;
}

const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');
const json = (value: unknown): Buffer => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

export class Backups {
  constructor(private readonly d: BackupsDeps) {}

  async run(clusterId: string, actor: string): Promise<BackupSetView> {
    const { store, tables, clock } = this.d;
    if (!tables.clusters.get(clusterId)) throw new CoreError('not_found', `cluster ${JSON.stringify(clusterId)} not found`);
    const access = this.d.registration.access(clusterId);
    if (!access) throw new CoreError('not_registered', 'this cluster has no registered kubeconfig yet; register it first');
    const path = `/apis/${API_GROUP}/${API_VERSION}/namespaces/${access.namespace}/${MANAGED_COMPONENT_PLURAL}`;
    let objects: KubeObject[];
    try {
      const api = kubeConfigFor(access).makeApiClient(CustomObjectsApi);
      const list = (await withTimeout(
        api.listNamespacedCustomObject({
          group: API_GROUP,
          version: API_VERSION,
          namespace: access.namespace,
          plural: MANAGED_COMPONENT_PLURAL,
        }),
        this.d.timeoutMs ?? KUBE_READ_TIMEOUT_MS,
      )) as { items?: KubeObject[] };
      objects = list.items ?? [];
    } catch (error) {
      throw classifyKubeError(error, access.server);
    }

    const desired = tables.commands.desiredState(clusterId) ?? { generation: 0, components: {} };
    const contents: { name: string; file: string; data: Buffer }[] = [
      { name: 'desired-state', file: DESIRED_STATE_FILE, data: json({ cluster_id: clusterId, ...desired }) },
    ];
    for (const object of objects) {
      const name = object.metadata?.name;
      // The name becomes a file name: only what Kubernetes itself allows, so never a path.
      if (typeof name !== 'string' || !DNS1123_SUBDOMAIN.test(name))
        throw new CoreError('api_error', `the API server returned a ManagedComponent with an invalid name: ${JSON.stringify(name)}`);
      // managedFields is the API server's bookkeeping of who set which field, not configuration.
      const { managedFields: _managedFields, ...metadata } = object.metadata!;
      contents.push({ name: `managedcomponent/${name}`, file: `managedcomponent.${name}.json`, data: json({ ...object, metadata }) });
    }

    const set: BackupSetRecord = {
      id: randomUUID(),
      cluster_id: clusterId,
      created_at: clock.now().toISOString(),
      created_by: actor,
      source: `${access.server}${path}`,
      generation: desired.generation,
    };
    const clusterDir = join(this.d.dataDir, BACKUPS_DIR, clusterId);
    const staging = join(clusterDir, `.${set.id}.partial`);
    const final = join(clusterDir, set.id);
    privateDir(join(this.d.dataDir, BACKUPS_DIR));
    privateDir(clusterDir);
    // Written aside and renamed whole, so a set folder is either complete or absent.
    let files: BackupFileRecord[];
    try {
      privateDir(staging);
      files = contents.map((c) => {
        writeFileAtomic(join(staging, c.file), c.data, 0o600);
        return { set_id: set.id, name: c.name, file: c.file, sha256: sha256(c.data), size: c.data.length };
      });
      renameSync(staging, final);
      store.tx(() => {
        if (!tables.clusters.get(clusterId)) throw new CoreError('not_found', `cluster ${JSON.stringify(clusterId)} was deleted meanwhile`);
        tables.lifecycle.insertBackup(set, files);
        store.audit.append({
          actor,
          action: 'backup.run',
          cluster_id: clusterId,
          target: set.id,
          details: {
            source: set.source,
            generation: set.generation,
            files: files.map((f) => ({ name: f.name, sha256: f.sha256, size: f.size })),
          },
        });
      });
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      rmSync(final, { recursive: true, force: true });
      throw error;
    }
    this.d.events.emit('backup.created', { id: set.id, cluster_id: set.cluster_id });
    return { ...set, files: files.map(fileView) };
  }

  list(clusterId: string): BackupSetView[] {
    if (!this.d.tables.clusters.get(clusterId)) throw new CoreError('not_found', `cluster ${JSON.stringify(clusterId)} not found`);
    return this.d.tables.lifecycle.backups(clusterId).map((s) => ({ ...s, files: s.files.map(fileView) }));
  }

  /**
   * The spec a restore brings back for one component: the desired state signed when the set was taken, else
   * the ManagedComponent as it stood in the cluster. Every file of the set is re-hashed first: one modified
   * or missing file stops the restore before anything is sent.
   */
  restorableSpec(clusterId: string, setId: string, component: string): unknown {
    const set = this.d.tables.lifecycle.backup(setId);
    if (!set || set.cluster_id !== clusterId)
      throw new CoreError('not_found', `backup set ${JSON.stringify(setId)} not found for this cluster`);
    const check = this.verify(setId);
    if (!check.ok) {
      const list = check.mismatches.map((m) => `${m.file} (${m.status})`).join(', ');
      throw new CoreError('backup_modified', `backup set ${setId} no longer matches its recorded sha256: ${list}; nothing was restored`, {
        mismatches: check.mismatches,
      });
    }
    const dir = join(this.d.dataDir, BACKUPS_DIR, set.cluster_id, set.id);
    const desired = JSON.parse(readFileSync(join(dir, DESIRED_STATE_FILE), 'utf8')) as { components?: Record<string, unknown> };
    if (desired.components && Object.hasOwn(desired.components, component)) return desired.components[component];
    const file = set.files.find((f) => f.name === `managedcomponent/${component}`);
    if (file) return (JSON.parse(readFileSync(join(dir, file.file), 'utf8')) as { spec?: unknown }).spec;
    throw new CoreError('not_found', `backup set ${setId} holds no component ${JSON.stringify(component)}`);
  }

  /** Re-hashes every file of the set against what was recorded when it was taken. */
  verify(setId: string): BackupVerification {
    const set = this.d.tables.lifecycle.backup(setId);
    if (!set) throw new CoreError('not_found', `backup set ${JSON.stringify(setId)} not found`);
    const dir = join(this.d.dataDir, BACKUPS_DIR, set.cluster_id, set.id);
    const files = set.files.map((f): BackupFileCheck => {
      let data: Buffer;
      try {
        data = readFileSync(join(dir, f.file));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT')
          return { ...fileView(f), status: 'missing', actual_sha256: null, actual_size: null };
        throw error;
      }
      const actual = sha256(data);
      return { ...fileView(f), status: actual === f.sha256 ? 'ok' : 'modified', actual_sha256: actual, actual_size: data.length };
    });
    const mismatches = files.filter((f) => f.status !== 'ok');
    return {
      set_id: set.id,
      cluster_id: set.cluster_id,
      checked_at: this.d.clock.now().toISOString(),
      ok: mismatches.length === 0,
      files,
      mismatches,
    };
  }
}

const fileView = (f: BackupFileRecord): BackupFile => ({ name: f.name, file: f.file, sha256: f.sha256, size: f.size });
