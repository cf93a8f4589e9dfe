// Registering a cluster by its API only (no SSH): the kubeconfig of the import identity is checked at once,
// its token sealed at rest, and a first inventory snapshot taken. A failed registration stores nothing.
import type { Tables } from '../domain-tables';
import type { Clock } from '../clock';
import { CoreError, NotFoundError, ValidationError } from '../errors';
import type { CoreEvents } from '../events';
import type { KeyProtector } from '../keys/protector';
import type { Store } from '../store/store';
import { readInventory, type Inventory } from '../../wire/inventory';
import { classifyKubeError, kubeConfigFor, parseKubeconfig, type ClusterAccess } from '../kubernetes/kube-client';
import { checkClusterAccess } from '../kubernetes/registration-check';
import { DEFAULT_NAMESPACE } from '../kubernetes/names';
import { labelProblem } from './names';
import type { InventorySnapshot, RegistrationResult } from '../../contract/kubernetes';

export type { InventorySnapshot, RegistrationResult };

/** A namespace of the request (null, "" or absent: the default one), a DNS-1123 label. */
export function checkNamespace(namespace: string | null | undefined): string {
  if (namespace === undefined || namespace === null || namespace === '') return DEFAULT_NAMESPACE;
  const problem = labelProblem(namespace);
  if (problem) throw new ValidationError('namespace', `namespace: ${problem}`);
  return namespace;
}

export class Registration {
  constructor(
    private readonly store: Store,
    private readonly tables: Tables<'clusterAccess' | 'clusters'>,
    private readonly protector: KeyProtector,
    private readonly clock: Clock,
    private readonly events: CoreEvents,
  ) {}

  /** `namespaceInput`: null, "" or absent is the default namespace. */
  async register(
    clusterId: string,
    kubeconfig: string,
    namespaceInput: string | null | undefined,
    actor: string,
  ): Promise<RegistrationResult> {
    if (!this.tables.clusters.get(clusterId)) throw new CoreError('not_found', `cluster ${JSON.stringify(clusterId)} not found`);
    if (kubeconfig.trim() === '') throw new ValidationError('kubeconfig', 'kubeconfig is required (the YAML text)');
    const namespace = checkNamespace(namespaceInput);
    const access = parseKubeconfig(kubeconfig);
    const checked = await checkClusterAccess(access, namespace);
    const inventory = await this.read(access);
    const now = this.clock.now().toISOString();
    this.store.tx(() => {
      if (!this.tables.clusters.get(clusterId))
        throw new CoreError('not_found', `cluster ${JSON.stringify(clusterId)} was deleted meanwhile`);
      this.tables.clusterAccess.upsertAccess({
        cluster_id: clusterId,
        server: access.server,
        ca_pem: access.caPem ?? null,
        tls_server_name: access.tlsServerName ?? null,
        sealed_token: this.protector.seal(Buffer.from(access.token)),
        namespace,
        kubernetes_version: checked.kubernetes_version,
        registered_at: now,
      });
      this.tables.clusterAccess.insertSnapshot(clusterId, now, 'import', inventory);
      this.store.audit.append({
        actor,
        action: 'cluster.register',
        cluster_id: clusterId,
        target: access.server,
        details: { namespace, kubernetes_version: checked.kubernetes_version },
      });
    });
    this.events.emit('cluster.changed', { id: clusterId });
    return {
      cluster_id: clusterId,
      server: access.server,
      namespace,
      kubernetes_version: checked.kubernetes_version,
      inventory,
      taken_at: now,
    };
  }

  /** The stored access of a registered cluster, token unsealed (kept in memory only). */
  access(clusterId: string): (ClusterAccess & { namespace: string }) | undefined {
    const row = this.tables.clusterAccess.access(clusterId);
    if (!row) return undefined;
    const access: ClusterAccess & { namespace: string } = {
      server: row.server,
      token: this.protector.open(row.sealed_token).toString('utf8'),
      namespace: row.namespace,
    };
    if (row.ca_pem) access.caPem = row.ca_pem;
    if (row.tls_server_name) access.tlsServerName = row.tls_server_name;
    return access;
  }

  /** The latest inventory of a cluster, read at registration, on refresh or reported by its agent. */
  inventory(clusterId: string): InventorySnapshot {
    if (!this.tables.clusters.get(clusterId)) throw new NotFoundError('cluster', clusterId);
    const snapshot = this.tables.clusterAccess.latestSnapshot(clusterId);
    if (!snapshot) throw new CoreError('not_found', 'no inventory yet: register the cluster or connect its agent');
    return { cluster_id: snapshot.cluster_id, taken_at: snapshot.taken_at, source: snapshot.source, inventory: snapshot.data as Inventory };
  }

  /** The namespace the cluster was registered with (where its agent runs), the default before registration. */
  namespace(clusterId: string): string {
    return this.tables.clusterAccess.access(clusterId)?.namespace ?? DEFAULT_NAMESPACE;
  }

  /** Takes a new inventory snapshot with the import identity. */
  async refreshInventory(clusterId: string, actor: string): Promise<{ taken_at: string; inventory: Inventory }> {
    if (!this.tables.clusters.get(clusterId)) throw new NotFoundError('cluster', clusterId);
    const access = this.access(clusterId);
    if (!access) throw new CoreError('not_registered', 'this cluster has no registered kubeconfig yet; register it first');
    const inventory = await this.read(access);
    const taken_at = this.clock.now().toISOString();
    this.store.tx(() => {
      this.tables.clusterAccess.insertSnapshot(clusterId, taken_at, 'import', inventory);
      this.store.audit.append({ actor, action: 'inventory.refresh', cluster_id: clusterId });
    });
    this.events.emit('cluster.changed', { id: clusterId });
    return { taken_at, inventory };
  }

  private async read(access: ClusterAccess): Promise<Inventory> {
    try {
      return await readInventory(kubeConfigFor(access));
    } catch (error) {
      throw classifyKubeError(error, access.server);
    }
  }
}
