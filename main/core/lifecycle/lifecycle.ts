// The gate every operation on a cluster passes: the profile's rules (a blocked profile refuses installs,
// upgrades, commands, starts and restarts), the four-eyes approval, and the preflight of installs and upgrades.
// Only then is the command signed and queued, the approval spent in the same transaction.
import type { Tables } from '../domain-tables';
import type { PublicUser } from '../accounts/accounts';
import type { ApprovalUse, Approvals } from '../approvals/approvals';
import type { Commands, CommandView } from '../commands/commands';
import { CoreError, found } from '../errors';
import type { CoreEvents } from '../events';
import type { Preflight, PreflightRequest, PreflightRun } from '../preflight/preflight';
import { BLOCKED_ACTIONS, requiresFourEyes } from '../profiles/profile-rules';
import type { ProfileEvaluation, Profiles } from '../profiles/profiles';
import type { Clock } from '../clock';
import type { Store } from '../store/store';
import type { Clusters } from '../clusters/clusters';
import type { ProfileName } from '../../contract/clusters';
import { FOUR_EYES_ACTIONS } from '../approvals/approvals';
import { planOperation, requestChange, type LifecycleAction, type LifecycleRequest } from './actions';

export interface LifecycleDeps {
  store: Store;
  tables: Tables<'clusters' | 'commands'>;
  clock: Clock;
  commands: Commands;
  profiles: Profiles;
  preflight: Preflight;
  approvals: Approvals;
  events: CoreEvents;
}

export interface Admission {
  use: ApprovalUse;
  refuse: (error: CoreError) => never;
  fourEyes: boolean;
  preflight: PreflightRun | null;
  /** Spends the approval (a no-op without four eyes); call it inside the transaction that issues the work. */
  consume: (ref: string) => void;
}

export interface LifecycleResult {
  action: LifecycleAction;
  command: CommandView;
  preflight: PreflightRun | null;
}

/** The approval that lets a four-eyes profile be changed: a configuration of the cluster, service "profile". */
export const PROFILE_SERVICE = 'profile';

export class Lifecycle {
  constructor(private readonly d: LifecycleDeps) {}

  /**
   * How a refusal is audited, then thrown: a refused approval as its own step of the approval, every other
   * refusal as the lifecycle's (with what was asked).
   */
  private refusal(
    user: PublicUser,
    use: ApprovalUse,
    approvalId: string | undefined,
    extra: Record<string, unknown> = {},
  ): (error: CoreError) => never {
    return (error) => {
      if (approvalId && error.code.startsWith('approval_')) this.d.approvals.auditRefusal(approvalId, use, error);
      else
        this.d.store.tx(() =>
          this.d.store.audit.append({
            actor: user.name,
            action: 'lifecycle.refused',
            cluster_id: use.cluster_id,
            target: use.service || null,
            details: { action: use.action, code: error.code, approval_id: approvalId ?? null, ...extra },
          }),
        );
      throw error;
    };
  }

  /**
   * Changes a cluster's profile. Leaving a profile that requires four eyes is itself a disruptive
   * configuration: without this, one admin could step down to development, act alone and step back.
   */
  changeProfile(clusterId: string, profile: ProfileName, user: PublicUser, clusters: Clusters, approvalId?: string): void {
    const cluster = found(this.d.tables.clusters.get(clusterId), 'cluster', clusterId);
    if (!requiresFourEyes(cluster.profile) || profile === cluster.profile) {
      clusters.setProfile(clusterId, profile, user.name);
      this.d.events.emit('cluster.changed', { id: clusterId });
      return;
    }
    const use = { cluster_id: clusterId, action: 'configuration', service: PROFILE_SERVICE, user_id: user.id, change: { profile } };
    const refuse = this.refusal(user, use, approvalId, { profile });
    if (!approvalId)
      refuse(
        new CoreError(
          'approval_required',
          `the ${cluster.profile} profile needs an approved request (action configuration, service ${PROFILE_SERVICE}) to change the profile`,
          { action: 'configuration', service: PROFILE_SERVICE, change: { profile } },
        ),
      );
    try {
      this.d.store.tx(() => {
        this.d.approvals.consume(approvalId!, use, `profile:${String(profile)}`);
        clusters.setProfile(clusterId, profile, user.name);
      });
    } catch (error) {
      if (error instanceof CoreError && error.code.startsWith('approval_')) refuse(error);
      throw error;
    }
    this.d.events.emit('approval.changed', { id: approvalId!, cluster_id: clusterId });
    this.d.events.emit('cluster.changed', { id: clusterId });
  }

  /**
   * The gate itself, for a component command or a service operation: the profile's rules (judged on the cluster
   * as it will be), the four-eyes approval (checked here, spent by the caller in the transaction that issues the
   * work, with `consume`), and the preflight of installs and upgrades. Throws the refusal, audited.
   */
  async admit(
    clusterId: string,
    plan: {
      action: LifecycleAction;
      service: string;
      spec?: unknown;
      /** What the action alone does not say, bound to the approval by its digest (settings, version, set…). */
      change?: unknown;
      /** An act four-eyes under the profile although its action is not always one (a backup that stops a server). */
      disruptive?: boolean;
    },
    user: PublicUser,
    approvalId: string | undefined,
    service?: PreflightRequest['service'],
  ): Promise<Admission> {
    const cluster = found(this.d.tables.clusters.get(clusterId), 'cluster', clusterId);
    const use = { cluster_id: clusterId, action: plan.action, service: plan.service, user_id: user.id, change: plan.change ?? null };
    const refuse = this.refusal(user, use, approvalId);

    let evaluation: ProfileEvaluation | undefined;
    if (BLOCKED_ACTIONS.has(plan.action)) {
      // Judged on the cluster as it will be: a new component or spec must not bring what the rules refuse.
      evaluation = await this.d.profiles.evaluate(clusterId, plan.spec ? { name: plan.service, spec: plan.spec } : undefined);
      if (evaluation.status === 'blocked') {
        const failing = evaluation.rules.filter((r) => r.status === 'fail');
        refuse(
          new CoreError(
            'profile_blocked',
            `the ${cluster.profile} profile of this cluster is blocked (${failing.map((r) => r.id).join(', ')}): ${plan.action} is refused until every rule is met`,
            { profile: cluster.profile, action: plan.action, failing },
          ),
        );
      }
    }

    const fourEyes =
      requiresFourEyes(cluster.profile) && (plan.disruptive === true || (FOUR_EYES_ACTIONS as readonly string[]).includes(plan.action));
    if (fourEyes) {
      if (!approvalId)
        refuse(
          new CoreError(
            'approval_required',
            `the ${cluster.profile} profile needs an approved request for ${plan.action} on ${plan.service}`,
            { action: plan.action, service: plan.service, change: use.change },
          ),
        );
      try {
        this.d.approvals.check(approvalId!, use);
      } catch (error) {
        if (error instanceof CoreError) refuse(error);
        throw error;
      }
    }

    let preflight: PreflightRun | null = null;
    if (plan.action === 'install' || plan.action === 'upgrade') {
      preflight = await this.d.preflight.run(clusterId, {
        trigger: plan.action,
        actor: user.name,
        target: { name: plan.service, spec: plan.spec },
        evaluation,
        service,
      });
      if (preflight.outcome === 'fail') {
        const failed = preflight.checks.filter((c) => c.status === 'fail');
        refuse(
          new CoreError(
            'preflight_failed',
            `the preflight of this ${plan.action} failed (${failed.map((c) => c.id).join(', ')}); nothing was written to the cluster`,
            { run: preflight },
          ),
        );
      }
    }
    const consume = (ref: string): void => {
      if (!fourEyes) return;
      try {
        this.d.approvals.consume(approvalId!, use, ref);
      } catch (error) {
        if (error instanceof CoreError && error.code.startsWith('approval_')) refuse(error);
        throw error;
      }
    };
    return { use, refuse, fourEyes, preflight, consume };
  }

  async run(clusterId: string, req: LifecycleRequest, user: PublicUser, approvalId?: string): Promise<LifecycleResult> {
    const { tables, clock } = this.d;
    found(tables.clusters.get(clusterId), 'cluster', clusterId);
    const plan = planOperation(tables, clusterId, req, clock.now());
    const { use, refuse, fourEyes, preflight } = await this.admit(
      clusterId,
      { ...plan, change: requestChange(req, plan) },
      user,
      approvalId,
    );

    let command;
    try {
      command = this.d.commands.issue(clusterId, plan.op, plan.args, user.name, {
        action: plan.action,
        expectGeneration: plan.generation,
        beforeCommit: fourEyes ? (commandId) => this.d.approvals.consume(approvalId!, use, commandId) : undefined,
      });
    } catch (error) {
      if (error instanceof CoreError && error.code.startsWith('approval_')) refuse(error);
      throw error;
    }
    this.d.events.emit('command.changed', { id: command.id, cluster_id: clusterId });
    if (fourEyes) this.d.events.emit('approval.changed', { id: approvalId!, cluster_id: clusterId });
    return { action: plan.action, command: this.d.commands.get(command.id), preflight };
  }
}
