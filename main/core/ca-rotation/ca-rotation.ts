// The manager CA's rotation with an overlap (issue 34), a state machine kept in the store so that a manager stopped
// halfway resumes where it was. started: a new CA is made and sealed, the gateway trusts both CAs and every agent
// is sent a signed trust update for both; serving-new (once every agent trusts both): the new CA issues, the
// gateway's server certificate is re-issued under it and every agent is asked to renew its client certificate;
// retiring (once every agent was seen with a new-CA certificate): the new CA becomes the store's, the old CA's
// certificates are revoked, the gateway trusts the new CA alone and the agents are told so; done once each agent
// acknowledged. An agent that does not answer (offline) holds the rotation in its stage and is named in the progress.
import { randomBytes } from 'node:crypto';
import type { Tables } from '../domain-tables';
import type { Clock } from '../clock';
import { ConflictError } from '../errors';
import type { CoreEvents } from '../events';
import type { Store } from '../store/store';
import { CertificateAuthority, type CaTrustSource } from '../keys/ca';
import type { KeyProtector } from '../keys/protector';
import type { CaRotationRecord, CaRotationStep, CaRotationStepRecord, CertifiedAgent } from './ca-rotation-tables';
import type { CaTrustArgs } from '../../wire/ca-trust';
import type { CaRotationAgent, CaRotationView } from '../../contract/ca-rotation';
import type { CommandRecord } from '../commands/commands-tables';

export type { CaRotationView };

/** How often a rotation under way is advanced without news (receipts and sightings advance it at once). */
export const CA_ROTATION_TICK_MS = 5_000;
/** An agent silent for longer than this is named offline (a long poll lasts at most 30 s). */
const OFFLINE_AFTER_MS = 45_000;

/** Sends one agent a trust update; `record` runs inside the command's own transaction with its id. */
export interface TrustSenders {
  cluster(clusterId: string, args: CaTrustArgs, actor: string, record: (commandId: string) => void): void;
  host(hostId: string, args: CaTrustArgs, actor: string, record: (commandId: string) => void): void;
}

export interface CaRotationDeps {
  store: Store;
  tables: Tables<'caRotations' | 'commands' | 'hosts' | 'clusters' | 'keys'>;
  protector: KeyProtector;
  clock: Clock;
  ca: CertificateAuthority;
  send: TrustSenders;
  events: CoreEvents;
  tickMs?: number;
}

type StepState = 'none' | 'pending' | 'done' | 'ended';
const ACTOR = 'system:ca-rotation';

export class CaRotation {
  private timer: NodeJS.Timeout | undefined;
  private soon: NodeJS.Timeout | undefined;
  private advancing = false;
  private readonly unsubscribe: () => void;

  constructor(private readonly d: CaRotationDeps) {
    d.ca.followRotation(this.trustSource);
    // News that may end a stage: a receipt, an agent seen with a renewed certificate (its cluster or host changed).
    this.unsubscribe = d.events.subscribe((e) => {
      if (e.type === 'command.changed' || e.type === 'host.changed' || e.type === 'cluster.changed') this.advanceSoon();
    });
  }

  /** Advances a rotation under way every tick (unref'd: a process does not stay up for it). */
  run(): void {
    this.timer ??= setInterval(() => this.advanceSafely(), this.d.tickMs ?? CA_ROTATION_TICK_MS);
    this.timer.unref();
    this.advanceSafely();
  }

  close(): void {
    clearInterval(this.timer);
    clearTimeout(this.soon);
    this.timer = undefined;
    this.unsubscribe();
  }

  /** The issuing and trusted CAs as the rotation under way has them (none: the store's CA alone). */
  readonly trustSource: CaTrustSource = () => {
    const r = this.d.tables.caRotations.active();
    if (!r) return undefined;
    const old = { cert_pem: r.old_cert_pem, sealed_key: r.old_sealed_key };
    const next = { cert_pem: r.new_cert_pem, sealed_key: r.new_sealed_key };
    if (r.state === 'started') return { issuer: old, trusted: [old.cert_pem, next.cert_pem] };
    if (r.state === 'serving-new') return { issuer: next, trusted: [next.cert_pem, old.cert_pem] };
    return { issuer: next, trusted: [next.cert_pem] };
  };

  /**
   * Starts a rotation: a new CA made and sealed, trusted beside the old one from now on. Refused
   * ca_rotation_in_progress while one is under way. `beforeCommit` spends an approval in the same transaction.
   */
  start(actor: string, beforeCommit?: () => void): CaRotationView {
    const { store, tables, protector, clock } = this.d;
    const id = randomBytes(6).toString('hex');
    const made = CertificateAuthority.create(tables, protector, clock, { record: false, commonName: `Navin Manager CA ${id}` });
    store.tx(() => {
      const active = tables.caRotations.active();
      if (active) throw new ConflictError('ca_rotation_in_progress', `the CA rotation ${active.id} is under way (${active.state})`);
      const old = tables.keys.ca();
      if (!old) throw new Error('the manager CA is missing from the store');
      const now = clock.now().toISOString();
      tables.caRotations.insert({
        id,
        state: 'started',
        old_cert_pem: old.cert_pem,
        old_sealed_key: old.sealed_key,
        new_cert_pem: made.cert_pem,
        new_sealed_key: made.sealed_key,
        first_new_certificate: null,
        started_by: actor,
        started_at: now,
        updated_at: now,
        finished_at: null,
      });
      beforeCommit?.();
      store.audit.append({ actor, action: 'ca.rotation_start', target: id });
    });
    this.d.ca.reload();
    this.advance();
    return this.progress()!;
  }

  /** Takes the rotation as far as the agents' answers allow now; safe to call at any time, from any process. */
  advance(): void {
    if (this.advancing) return;
    this.advancing = true;
    try {
      // Each stage ends in its own transaction: the next pass (or a restarted manager) reads where it stands.
      for (let passes = 0; passes < 4; passes++) if (!this.step()) break;
    } finally {
      this.advancing = false;
    }
  }

  /** The rotation under way, else the last one, with each agent's stage; null before any. */
  progress(): CaRotationView | null {
    const { tables, clock } = this.d;
    const r = tables.caRotations.active() ?? tables.caRotations.latest();
    if (!r) return null;
    const nowMs = clock.now().getTime();
    const steps = this.stepsOf(r);
    const agents: CaRotationAgent[] = tables.caRotations.certifiedAgents(clock.now().toISOString(), r.first_new_certificate).map((a) => {
      const lastSeen = this.lastSeen(a);
      const stage =
        steps(a, 'trust-new') === 'done'
          ? 'trusts-new'
          : a.on_new_ca
            ? 'renewed'
            : steps(a, 'trust-both') === 'done'
              ? 'trusts-both'
              : 'pending';
      return {
        cluster_id: a.cluster_id,
        host_id: a.host_id || null,
        name: a.host_id ? (tables.hosts.get(a.host_id)?.name ?? a.host_id) : (tables.clusters.get(a.cluster_id)?.name ?? a.cluster_id),
        stage,
        last_seen: lastSeen,
        offline: lastSeen === null || nowMs - new Date(lastSeen).getTime() > OFFLINE_AFTER_MS,
      };
    });
    const count = (stage: CaRotationAgent['stage']): number => agents.filter((a) => a.stage === stage).length;
    return {
      id: r.id,
      state: r.state,
      started_by: r.started_by,
      started_at: r.started_at,
      updated_at: r.updated_at,
      finished_at: r.finished_at,
      stages: {
        pending: count('pending'),
        'trusts-both': count('trusts-both'),
        renewed: count('renewed'),
        'trusts-new': count('trusts-new'),
      },
      agents,
      waiting_for: r.state === 'done' ? [] : agents.filter((a) => !this.doneInState(r.state, a.stage)).map((a) => a.name),
    };
  }

  private doneInState(state: CaRotationRecord['state'], stage: CaRotationAgent['stage']): boolean {
    if (state === 'started') return stage !== 'pending';
    if (state === 'serving-new') return stage === 'renewed' || stage === 'trusts-new';
    return stage === 'trusts-new';
  }

  private advanceSoon(): void {
    if (this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = undefined;
      this.advanceSafely();
    }, 100);
    this.soon.unref();
  }

  private advanceSafely(): void {
    try {
      if (this.d.tables.caRotations.active()) this.advance();
    } catch (error) {
      console.error(
        JSON.stringify({ level: 'error', event: 'ca_rotation.advance_failed', error: String((error as Error)?.stack ?? error) }),
      );
    }
  }

  /** One pass: sends what each agent lacks for the stage, and moves on when none lacks anything. True when it moved. */
  private step(): boolean {
    const { tables, clock, store } = this.d;
    const r = tables.caRotations.active();
    if (!r) return false;
    const now = clock.now().toISOString();
    const agents = tables.caRotations.certifiedAgents(now, r.first_new_certificate);
    const steps = this.stepsOf(r);
    const pems = { old: r.old_cert_pem, next: r.new_cert_pem };
    if (r.state === 'started') {
      const waiting = agents.filter((a) => steps(a, 'trust-both') !== 'done');
      for (const a of waiting) this.ensure(r, a, 'trust-both', { ca_pems: [pems.old, pems.next], renew: false });
      if (waiting.length > 0) return false;
      const moved = store.tx(() => {
        const ok = tables.caRotations.setState(r.id, 'started', 'serving-new', now, tables.caRotations.nextCertificateRowid());
        if (ok) store.audit.append({ actor: ACTOR, action: 'ca.rotation_serving_new', target: r.id, details: { agents: agents.length } });
        return ok;
      });
      this.d.ca.reload();
      return moved;
    }
    if (r.state === 'serving-new') {
      const waiting = agents.filter((a) => !a.on_new_ca);
      for (const a of waiting) this.ensure(r, a, 'renew', { ca_pems: [pems.next, pems.old], renew: true });
      if (waiting.length > 0) return false;
      const moved = store.tx(() => {
        if (!tables.caRotations.setState(r.id, 'serving-new', 'retiring', now)) return false;
        tables.caRotations.replaceCa(r.new_cert_pem, r.new_sealed_key, now);
        const revoked = tables.caRotations.revokeBefore(r.first_new_certificate!, now);
        store.audit.append({ actor: ACTOR, action: 'ca.rotation_retiring', target: r.id, details: { revoked_serials: revoked } });
        return true;
      });
      this.d.ca.reload();
      return moved;
    }
    if (r.state === 'retiring') {
      const waiting = agents.filter((a) => steps(a, 'trust-new') !== 'done');
      for (const a of waiting) this.ensure(r, a, 'trust-new', { ca_pems: [pems.next], renew: false });
      if (waiting.length > 0) return false;
      return store.tx(() => {
        const ok = tables.caRotations.setState(r.id, 'retiring', 'done', now);
        if (ok) store.audit.append({ actor: ACTOR, action: 'ca.rotation_done', target: r.id, details: { agents: agents.length } });
        return ok;
      });
    }
    return false;
  }

  /** Where one agent's step stands, read from the command last sent for it. */
  private stepsOf(r: CaRotationRecord): (a: CertifiedAgent, step: CaRotationStep) => StepState {
    const byKey = new Map(this.d.tables.caRotations.steps(r.id).map((s) => [keyOf(s.cluster_id, s.host_id, s.step), s]));
    return (a, step) => this.stateOf(byKey.get(keyOf(a.cluster_id, a.host_id, step)));
  }

  private stateOf(s: CaRotationStepRecord | undefined): StepState {
    const c: CommandRecord | undefined = s && this.d.tables.commands.get(s.command_id);
    if (!c) return 'none';
    if (c.state === 'succeeded') return 'done';
    if ((c.state === 'queued' || c.state === 'delivered') && c.not_after > this.d.clock.now().toISOString()) return 'pending';
    // Failed, refused or expired unanswered (an agent offline past the command's validity): sent again.
    return 'ended';
  }

  /** Sends the agent its command for `step` unless one is on its way or done, read again under the write lock. */
  private ensure(r: CaRotationRecord, a: CertifiedAgent, step: CaRotationStep, args: Omit<CaTrustArgs, 'rotation_id'>): void {
    const { store, tables, clock } = this.d;
    const full: CaTrustArgs = { rotation_id: r.id, ...args };
    store.tx(() => {
      const current = tables.caRotations
        .steps(r.id)
        .find((s) => s.cluster_id === a.cluster_id && s.host_id === a.host_id && s.step === step);
      const state = this.stateOf(current);
      if (state === 'pending' || state === 'done') return;
      const record = (commandId: string): void =>
        tables.caRotations.putStep({
          rotation_id: r.id,
          cluster_id: a.cluster_id,
          host_id: a.host_id,
          step,
          command_id: commandId,
          issued_at: clock.now().toISOString(),
        });
      if (a.host_id) this.d.send.host(a.host_id, full, ACTOR, record);
      else this.d.send.cluster(a.cluster_id, full, ACTOR, record);
    });
  }

  private lastSeen(a: CertifiedAgent): string | null {
    if (a.host_id) return this.d.tables.hosts.get(a.host_id)?.last_seen ?? null;
    return this.d.tables.commands.agentStatus(a.cluster_id)?.last_seen ?? null;
  }
}

const keyOf = (clusterId: string, hostId: string, step: string): string => `${clusterId}\u0000${hostId}\u0000${step}`;
