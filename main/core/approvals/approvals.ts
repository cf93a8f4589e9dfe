// Four-eyes approvals: an operator asks for one disruptive act with its exact request, another admin decides on
// that request (its digest), and the requester spends it once, on that same request, within 24 hours of the
// decision. Every step, and every refused use, is audited.
import type { Tables } from '../domain-tables';
import { randomUUID } from 'node:crypto';
import { roleAtLeast, type PublicUser } from '../accounts/accounts';
import type { Clock } from '../clock';
import { labelProblem } from '../clusters/names';
import { CoreError, ValidationError } from '../errors';
import type { ApprovalRecord } from './approvals-table';
import { APPROVAL_STATES, type Approval, type ApprovalRequest, type ApprovalState } from '../../contract/approvals';
import type { CoreEvents } from '../events';
import type { Store } from '../store/store';
import { APPROVABLE, canonicalRequest, isApprovable, isFourEyesAction, isSystemAct, requestDigest } from './approval-acts';
import { approvalDiff } from './approval-diff';

export { FOUR_EYES_ACTIONS, isFourEyesAction, type FourEyesAction } from './approval-acts';
export const APPROVAL_TTL_MS = 24 * 3600_000;
export const MAX_REASON = 500;
export const MAX_NOTE = 500;

/** The acts whose change replaces something in force, which the approver reads as a diff against it. */
const DIFFED: readonly string[] = ['configuration', 'upgrade', 'rollback'];

/** A target name of an act other than a component's: a cluster, host, user or services list (a,b). */
const TARGET = /^[A-Za-z0-9][A-Za-z0-9._,-]{0,252}$/;

/**
 * What an operation is about to do with an approval: checked against what was approved, member by member, then
 * the digest of its exact request (`change`: the settings, spec, version or backup set the act carries).
 */
export interface ApprovalUse {
  cluster_id: string | null;
  action: string;
  service: string;
  user_id: string;
  change?: unknown;
}

/** An approval as its viewer sees it: the contract's view. */
export type ApprovalView = Approval;

/** A request as the core is asked it: the contract's, but any action, judged here too (the core is asked directly). */
export type ApprovalAsk = Omit<ApprovalRequest, 'action'> & { action: string };

export class ApprovalError extends CoreError {}

const isState = (v: string): v is ApprovalState => (APPROVAL_STATES as readonly string[]).includes(v);

function checkedText(field: string, v: string | null | undefined, max: number, required: boolean): string | null {
  if (v === undefined || v === null || (v === '' && !required)) {
    if (required) throw new ValidationError(field, `${field} is required`);
    return null;
  }
  const text = v.trim();
  if (required && text.length === 0) throw new ValidationError(field, `${field} is required`);
  if (text.length > max) throw new ValidationError(field, `${field} has at most ${max} characters`);
  return text.length ? text : null;
}

export class Approvals {
  constructor(
    private readonly store: Store,
    private readonly tables: Tables<'accounts' | 'approvals' | 'clusters' | 'commands' | 'services'>,
    private readonly clock: Clock,
    private readonly events: CoreEvents,
  ) {}

  request(input: ApprovalAsk, user: PublicUser): ApprovalView {
    if (!roleAtLeast(user.role, 'operator'))
      throw new ApprovalError('forbidden', `requesting an approval needs the operator or admin role; you are ${user.role}`);
    if (!isApprovable(input.action)) throw new ValidationError('action', `action is one of ${APPROVABLE.join(', ')}`);
    const system = isSystemAct(input.action);
    if (system && !roleAtLeast(user.role, 'admin'))
      throw new ApprovalError('forbidden', `${input.action} is an admin's act; you are ${user.role}`);
    const problem = isFourEyesAction(input.action)
      ? labelProblem(input.service)
      : TARGET.test(input.service)
        ? undefined
        : 'a name of letters, digits, ".", "_", "-" or ","';
    if (problem) throw new ValidationError('service', `service (what the act is on): ${problem}`);
    const reason = checkedText('reason', input.reason, MAX_REASON, true)!;
    let clusterId: string | null = null;
    if (system) {
      if (input.cluster_id !== undefined && input.cluster_id !== null && input.cluster_id !== '')
        throw new ValidationError('cluster_id', `${input.action} concerns no cluster: leave cluster_id out`);
    } else {
      if (input.cluster_id === undefined || input.cluster_id === null || input.cluster_id === '')
        throw new ValidationError('cluster_id', 'cluster_id is required');
      clusterId = input.cluster_id;
    }
    const change = canonicalRequest({
      action: input.action,
      cluster_id: clusterId,
      service: input.service,
      change: input.change,
    });
    const row: ApprovalRecord = {
      id: randomUUID(),
      cluster_id: clusterId,
      action: input.action,
      service: input.service,
      reason,
      state: 'pending',
      requested_by: user.id,
      requested_at: this.clock.now().toISOString(),
      decided_by: null,
      decided_at: null,
      decision_note: null,
      expires_at: null,
      used_at: null,
      used_by_command: null,
      change,
      digest: requestDigest(change),
    };
    this.store.tx(() => {
      if (clusterId !== null && !this.tables.clusters.get(clusterId))
        throw new CoreError('not_found', `cluster ${JSON.stringify(clusterId)} not found`);
      this.tables.approvals.insert(row);
      this.store.audit.append({
        actor: user.name,
        action: 'approval.request',
        cluster_id: clusterId,
        target: row.id,
        details: { action: row.action, service: row.service, reason, digest: row.digest },
      });
    });
    this.announce(row);
    return this.view(row, user);
  }

  approve(id: string, user: PublicUser, note?: string | null): ApprovalView {
    return this.decide(id, 'approved', user, note);
  }

  reject(id: string, user: PublicUser, note?: string | null): ApprovalView {
    return this.decide(id, 'rejected', user, note);
  }

  /** The state is judged here too: the core is asked directly, with any text. */
  list(filter: { cluster_id?: string; state?: string; limit?: number }, viewer?: PublicUser): ApprovalView[] {
    const state = filter.state === '' ? undefined : filter.state;
    if (state !== undefined && !isState(state)) throw new ValidationError('state', `state is one of ${APPROVAL_STATES.join(', ')}`);
    return this.tables.approvals.list({ cluster_id: filter.cluster_id, state, limit: filter.limit }).map((r) => this.view(r, viewer));
  }

  get(id: string, viewer?: PublicUser): ApprovalView {
    return this.view(this.record(id), viewer);
  }

  /**
   * Read-only: throws the code that would refuse this use. Lets an operation refuse before it starts, and audit
   * the refusal with auditRefusal (a refusal inside the operation's transaction would be rolled back with it).
   */
  check(id: string, use: ApprovalUse): ApprovalRecord {
    const r = this.record(id);
    if (r.state === 'pending' || r.state === 'rejected')
      throw new ApprovalError('approval_not_approved', `approval ${id} is ${r.state}, not approved`, { approval_id: id, state: r.state });
    if (r.state === 'used')
      throw new ApprovalError('approval_used', `approval ${id} was already used (command ${r.used_by_command ?? '?'})`, {
        approval_id: id,
        used_at: r.used_at,
        used_by_command: r.used_by_command,
      });
    if (r.expires_at === null || this.clock.now().getTime() >= Date.parse(r.expires_at)) {
      throw new ApprovalError(
        'approval_expired',
        `approval ${id} expired at ${r.expires_at ?? '?'} (${APPROVAL_TTL_MS / 3600_000} hours after it was approved); request a new one`,
        { approval_id: id, expires_at: r.expires_at },
      );
    }
    if (r.requested_by !== use.user_id)
      throw new ApprovalError('approval_wrong_user', `only its requester (${this.userName(r.requested_by)}) can use approval ${id}`, {
        approval_id: id,
      });
    for (const member of ['cluster_id', 'action', 'service'] as const) {
      if (r[member] !== use[member]) {
        const what = member === 'cluster_id' ? 'cluster' : member;
        throw new ApprovalError(
          'approval_wrong_target',
          `approval ${id} is for ${what} ${JSON.stringify(r[member])}, not ${JSON.stringify(use[member])}`,
          { approval_id: id, mismatch: member, approved: r[member], requested: use[member] },
        );
      }
    }
    // The same act on other content (other settings, version or backup set) is another request.
    const asked = requestDigest(canonicalRequest({ ...use, change: use.change }));
    if (r.digest !== asked)
      throw new ApprovalError(
        'approval_mismatch',
        r.digest === null
          ? `approval ${id} was approved before approvals were bound to their exact request; request a new one`
          : `approval ${id} approved the request of digest ${r.digest}; this request's digest is ${asked}`,
        { approval_id: id, approved_digest: r.digest, requested_digest: asked },
      );
    return r;
  }

  /**
   * Spends the approval for commandId. Call inside the operation's store.tx so the command and the use land
   * together (nested, it joins that transaction). Throws like check(); a concurrent use gives approval_used.
   */
  consume(id: string, use: ApprovalUse, commandId: string): ApprovalRecord {
    return this.store.tx(() => {
      const r = this.check(id, use);
      const usedAt = this.clock.now().toISOString();
      if (!this.tables.approvals.markUsed(id, usedAt, commandId))
        throw new ApprovalError('approval_used', `approval ${id} was used meanwhile`, { approval_id: id });
      this.store.audit.append({
        actor: this.userName(use.user_id),
        action: 'approval.use',
        cluster_id: r.cluster_id,
        target: id,
        details: { action: r.action, service: r.service, command_id: commandId, digest: r.digest },
      });
      return { ...r, state: 'used', used_at: usedAt, used_by_command: commandId };
    });
  }

  /**
   * The whole use for a synchronous operation: op (which creates the command) and the approval's use commit
   * together or not at all; a refused use is audited after the rollback, then rethrown.
   */
  spend<T>(id: string, use: ApprovalUse, op: () => T, commandIdOf: (result: T) => string): T {
    try {
      return this.store.tx(() => {
        this.check(id, use);
        const result = op();
        this.consume(id, use, commandIdOf(result));
        return result;
      });
    } catch (error) {
      if (error instanceof ApprovalError && error.code.startsWith('approval_')) this.auditRefusal(id, use, error);
      throw error;
    }
  }

  /** Audits a refused use in its own transaction; call it after the operation's transaction rolled back. */
  auditRefusal(id: string, use: ApprovalUse, error: unknown): void {
    const code = error instanceof CoreError ? error.code : 'internal';
    this.store.tx(() => {
      this.store.audit.append({
        actor: this.userName(use.user_id),
        action: 'approval.use_refused',
        cluster_id: use.cluster_id,
        target: id,
        details: { code, action: use.action, service: use.service },
      });
    });
  }

  private decide(id: string, state: 'approved' | 'rejected', user: PublicUser, noteInput: string | null | undefined): ApprovalView {
    if (!roleAtLeast(user.role, 'admin'))
      throw new ApprovalError('forbidden', `deciding an approval needs the admin role; you are ${user.role}`);
    const note = checkedText('note', noteInput, MAX_NOTE, false);
    const view = this.store.tx(() => {
      const r = this.record(id);
      if (r.requested_by === user.id)
        throw new ApprovalError('approval_self', 'an approval must be decided by another admin than its requester', { approval_id: id });
      if (r.state !== 'pending')
        throw new ApprovalError('approval_decided', `approval ${id} is already ${r.state}`, { approval_id: id, state: r.state });
      const now = this.clock.now();
      const decidedAt = now.toISOString();
      const expiresAt = state === 'approved' ? new Date(now.getTime() + APPROVAL_TTL_MS).toISOString() : null;
      if (!this.tables.approvals.decide(id, state, user.id, decidedAt, note, expiresAt))
        throw new ApprovalError('approval_decided', `approval ${id} was decided meanwhile`, { approval_id: id });
      this.store.audit.append({
        actor: user.name,
        action: state === 'approved' ? 'approval.approve' : 'approval.reject',
        cluster_id: r.cluster_id,
        target: id,
        details: {
          action: r.action,
          service: r.service,
          requested_by: this.userName(r.requested_by),
          note,
          expires_at: expiresAt,
          digest: r.digest,
        },
      });
      return this.view({ ...r, state, decided_by: user.id, decided_at: decidedAt, decision_note: note, expires_at: expiresAt }, user);
    });
    this.announce(view);
    return view;
  }

  /** Every console following approvals reloads (the Approvals screen, the pickers of a cluster). */
  private announce(r: { id: string; cluster_id: string | null }): void {
    this.events.emit('approval.changed', { id: r.id, cluster_id: r.cluster_id });
  }

  private record(id: string): ApprovalRecord {
    const r = typeof id === 'string' ? this.tables.approvals.get(id) : undefined;
    if (!r) throw new ApprovalError('approval_not_found', `approval ${JSON.stringify(id)} not found`, { approval_id: id });
    return r;
  }

  /**
   * What a change replaces: the service's version and settings, else the component's spec in the desired state,
   * only the parts the change names (an upgrade's version is no removal of every setting).
   */
  private current(clusterId: string, service: string, change: unknown): unknown {
    const installed = this.tables.services.get(clusterId, service);
    const components = this.tables.commands.desiredState(clusterId)?.components;
    const whole: Record<string, unknown> = installed
      ? { version: installed.version, settings: installed.config }
      : components && Object.hasOwn(components, service)
        ? { spec: components[service] }
        : {};
    const named = typeof change === 'object' && change !== null ? Object.keys(change) : [];
    return Object.fromEntries(Object.entries(whole).filter(([k]) => named.includes(k)));
  }

  /** Ids stay in the records (names can be reused); a deleted user shows as its id. */
  private userName(id: string): string {
    return this.tables.accounts.userById(id)?.name ?? id;
  }

  private view(r: ApprovalRecord, viewer: PublicUser | undefined): ApprovalView {
    const live = r.state === 'approved' && r.expires_at !== null && this.clock.now().getTime() < Date.parse(r.expires_at);
    const change = r.change === null ? null : ((JSON.parse(r.change) as { change: unknown }).change ?? null);
    return {
      ...r,
      change,
      diff: DIFFED.includes(r.action) && r.cluster_id !== null ? approvalDiff(this.current(r.cluster_id, r.service, change), change) : null,
      requested_by_name: this.userName(r.requested_by),
      decided_by_name: r.decided_by === null ? null : this.userName(r.decided_by),
      usable: live && viewer !== undefined && viewer.id === r.requested_by,
    };
  }
}
