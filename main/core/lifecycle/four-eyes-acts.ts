// Four eyes for acts that are no command of the lifecycle: deleting a cluster or a host, re-issuing an agent's
// identity (the running agent is cut off), and the acts on the manager itself through which one admin could
// later pass four eyes alone (a second admin of his own, an admin's second factor reset, a bundle key of his own).
import type { Tables } from '../domain-tables';
import type { PublicUser } from '../accounts/accounts';
import { RELEASE_KEY_TARGET } from '../approvals/approval-acts';
import type { ApprovalUse, Approvals } from '../approvals/approvals';
import { CoreError, found } from '../errors';
import type { CoreEvents } from '../events';
import { requiresFourEyes } from '../profiles/profile-rules';
import type { Role } from '../accounts/accounts-tables';
import type { Store } from '../store/store';

export interface FourEyesActsDeps {
  store: Store;
  tables: Tables<'accounts' | 'clusters' | 'hosts' | 'keys'>;
  approvals: Approvals;
  events: CoreEvents;
}

/** One act as an approval names it; cluster_id null for an act on the manager itself. */
export interface Act {
  cluster_id: string | null;
  action: string;
  service: string;
  change?: unknown;
}

/** Runs inside the act's own transaction: spends the approval there, so the act and its use commit together. */
export type BeforeCommit = (() => void) | undefined;

export class FourEyesActs {
  constructor(private readonly d: FourEyesActsDeps) {}

  clusterDeletion(clusterId: string): Act {
    return { cluster_id: clusterId, action: 'delete_cluster', service: this.cluster(clusterId).name };
  }

  hostDeletion(hostId: string): Act {
    const h = this.host(hostId);
    return { cluster_id: h.cluster_id, action: 'delete_host', service: h.name };
  }

  /** A first identity cuts nobody off; a new one while one is live revokes the running agent. */
  clusterIdentity(clusterId: string): Act | null {
    this.cluster(clusterId);
    const live = this.d.tables.keys.certificatesOf(clusterId).some((c) => c.kind === 'client' && c.revoked_at === null);
    return live ? { cluster_id: clusterId, action: 'reissue_identity', service: 'agent' } : null;
  }

  hostIdentity(hostId: string): Act | null {
    const h = this.host(hostId);
    const live = this.d.tables.hosts.certificates(hostId).some((c) => c.revoked_at === null);
    return live ? { cluster_id: h.cluster_id, action: 'reissue_identity', service: h.name } : null;
  }

  userCreation(name: unknown, role: unknown): Act | null {
    if (role !== 'admin' || typeof name !== 'string') return null;
    return { cluster_id: null, action: 'create_admin', service: name, change: { role: 'admin' } };
  }

  mfaReset(name: string): Act | null {
    const role: Role | undefined = this.d.tables.accounts.userByName(name)?.role;
    return role === 'admin' ? { cluster_id: null, action: 'reset_admin_mfa', service: name } : null;
  }

  releaseKeyTrust(publicKeyPem: unknown): Act {
    const pem = typeof publicKeyPem === 'string' ? publicKeyPem.trim() : publicKeyPem;
    return { cluster_id: null, action: 'trust_release_key', service: RELEASE_KEY_TARGET, change: { public_key_pem: pem ?? null } };
  }

  /**
   * Whether the act needs an approval: its cluster's profile wants four eyes, or, for an act on the manager
   * itself, any cluster's profile in use does (read as the distinct profiles, not every cluster).
   */
  required(act: Act): boolean {
    if (act.cluster_id === null) return this.d.tables.clusters.profilesInUse().some(requiresFourEyes);
    const c = this.d.tables.clusters.get(act.cluster_id);
    return c !== undefined && requiresFourEyes(c.profile);
  }

  /**
   * Runs op, which performs the act and calls the BeforeCommit it is given inside its transaction. Without four
   * eyes op gets undefined; with them, no approval or an approval for anything else refuses before op runs.
   */
  async run<T>(
    act: Act | null,
    user: PublicUser,
    approvalId: string | undefined,
    op: (beforeCommit: BeforeCommit) => T | Promise<T>,
  ): Promise<T> {
    if (act === null || !this.required(act)) return op(undefined);
    const use: ApprovalUse = { ...act, change: act.change ?? null, user_id: user.id };
    if (!approvalId) {
      this.d.store.tx(() =>
        this.d.store.audit.append({
          actor: user.name,
          action: 'lifecycle.refused',
          cluster_id: act.cluster_id,
          target: act.service,
          details: { action: act.action, code: 'approval_required', approval_id: null },
        }),
      );
      throw new CoreError('approval_required', `four eyes: ${act.action} of ${act.service} needs an approved request`, {
        action: act.action,
        service: act.service,
        cluster_id: act.cluster_id,
        change: use.change,
      });
    }
    let spent = false;
    let result: T;
    try {
      this.d.approvals.check(approvalId, use);
      result = await op(() => {
        this.d.approvals.consume(approvalId, use, `${act.action}:${act.service}`);
        spent = true;
      });
    } catch (error) {
      if (error instanceof CoreError && error.code.startsWith('approval_')) this.d.approvals.auditRefusal(approvalId, use, error);
      throw error;
    }
    // An act that forgot to spend its approval would leave it usable for a second act.
    if (!spent) throw new Error(`${act.action} ran without spending approval ${approvalId}`);
    this.d.events.emit('approval.changed', { id: approvalId, cluster_id: act.cluster_id });
    return result;
  }

  private cluster(id: string): { name: string } {
    return found(this.d.tables.clusters.get(id), 'cluster', id);
  }

  private host(id: string): { cluster_id: string; name: string } {
    return found(this.d.tables.hosts.get(id), 'host', id);
  }
}
