// Runs one signed command exactly once, for either agent: verify it (trust core codes), refuse sensitive work
// while offline, let the agent kind check its args, claim the nonce in the durable state, execute, and keep the
// receipt there until the manager has it. A command already run is answered nonce_replayed with the original
// result. What an operation does is the Executor's (cluster-executor.ts, node/plan-executor.ts).
import { verifyDocument, type VerifyOptions } from '../main/wire/envelope';
import { nodeEd25519 } from '../main/wire/ed25519-node';
import type { Receipt } from '../main/wire/protocol';
import type { CommonConfig, Identity } from './identity';
import { log } from './log';
import { StateNonces, type AgentStateBase, type AgentStateStore } from './state';

/** A failure with a stable code (and what was done before it), turned into a `failed` receipt. */
export class ExecutionError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly result?: unknown,
  ) {
    super(message);
  }
}

export type Prepared<S> = { ok: true; claim?: (s: S) => void } | { ok: false; code: string; message: string };

export interface Executor<S extends AgentStateBase> {
  /** Operations this agent knows; any other is refused op_unknown. */
  readonly operations: readonly string[];
  /** Operations refused while offline with manager_unreachable. */
  readonly sensitive: ReadonlySet<string>;
  /** Checks the args before anything is claimed; `claim` is written in the same state write as the nonce. */
  prepare(commandId: string, op: string, args: unknown): Prepared<S>;
  /** Carries the operation out; throws ExecutionError (or any error: execution_failed). */
  execute(commandId: string, op: string, args: unknown): Promise<unknown>;
  /** Written with the receipt (e.g. to close what the claim opened). */
  settle?(s: S, commandId: string): void;
  /** A command accepted but not finished yet (a plan resumed after a restart): its redelivery waits for it. */
  inProgress?(commandId: string): boolean;
  /** After the receipt is stored. */
  afterExecuted?(commandId: string, op: string, receipt: Receipt): void;
}

export interface CommandRunnerOptions<S extends AgentStateBase> {
  identity: Identity<CommonConfig>;
  state: AgentStateStore<S>;
  executor: Executor<S>;
  /** Names the agent in receipts (the replica, or the host). */
  replica: string;
  isOffline: () => boolean;
}

export class CommandRunner<S extends AgentStateBase> {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: CommandRunnerOptions<S>) {}

  /** Runs one thing at a time: commands from the gateway and the inbox never interleave their state writes. */
  serialized<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  receipt(commandId: string, status: Receipt['status'], extra: Partial<Receipt> = {}): Receipt {
    return { command_id: commandId, status, executed_at: new Date().toISOString(), replica: this.o.replica, ...extra };
  }

  /** Verification options for a document of this agent's target (commands, desired states). */
  verifyOptions<T extends 'command' | 'desired-state'>(expectedType: T): VerifyOptions<T> {
    const { config, trustedKeys } = this.o.identity;
    return {
      impl: nodeEd25519,
      trustedKeys,
      expectedType,
      expectedTarget: config.target,
      expectedTenant: config.tenant,
      clockSkewSeconds: config.clock_skew_s,
    };
  }

  /** Returns the receipt to send, or null when there is nothing to answer yet; never throws for a bad command. */
  run(input: unknown, source: 'gateway' | 'inbox'): Promise<Receipt | null> {
    return this.serialized(() => this.runOnce(input, source));
  }

  private async runOnce(input: unknown, source: 'gateway' | 'inbox'): Promise<Receipt | null> {
    const { state, executor } = this.o;
    const commandId = peekCommandId(input);
    if (!commandId) {
      log('command.refused', { source, code: 'malformed' }, 'warn');
      return null;
    }
    await state.load();
    const nonces = new StateNonces(state);
    const v = verifyDocument(input, { ...this.verifyOptions('command'), nonceStore: nonces });
    // A command whose receipt is kept ran already, even if its nonce was dropped since (a wall clock stepped
    // forward past its expiry, then back): it is a replay either way.
    const original = state.state.receipts[commandId];
    const replayed = v.ok ? original !== undefined : v.code === 'nonce_replayed';
    if (!v.ok || replayed) {
      if (replayed && !original && executor.inProgress?.(commandId)) {
        // Redelivered while its plan is still running (resumed after a restart): the receipt comes when it ends.
        log('command.in_progress', { source, command_id: commandId });
        return null;
      }
      const code = v.ok ? 'nonce_replayed' : v.code;
      log('command.refused', { source, command_id: commandId, code }, 'warn');
      if (replayed && original) {
        return this.receipt(commandId, 'rejected', {
          code: 'nonce_replayed',
          message: 'this command was already executed',
          original: { status: original.status, code: original.code, result: original.result, executed_at: original.executed_at },
        });
      }
      return this.receipt(commandId, 'rejected', { code, message: v.ok ? 'this command was already executed' : v.message });
    }
    const p = v.payload as unknown as { command_id: string; nonce: string; op: string; args: unknown };
    log('command.verified', { source, command_id: commandId, op: p.op });
    if (!executor.operations.includes(p.op)) {
      log('command.refused', { source, command_id: commandId, code: 'op_unknown' }, 'warn');
      return this.receipt(commandId, 'rejected', { code: 'op_unknown', message: `unknown operation ${p.op}` });
    }
    if (executor.sensitive.has(p.op) && this.o.isOffline()) {
      log('command.refused', { source, command_id: commandId, code: 'manager_unreachable' }, 'warn');
      const refused = this.receipt(commandId, 'rejected', {
        code: 'manager_unreachable',
        message: 'the manager is unreachable: sensitive operations wait for it to come back',
      });
      // The refusal is this command's one answer: its nonce is used up, so a redelivery on the manager's return
      // gets nonce_replayed with this refusal as the original outcome, never a late execution.
      await state.update((s) => {
        for (const [n, until] of nonces.pending) s.nonces[n] = until;
        s.receipts[commandId] ??= refused;
        if (!s.unsent.includes(commandId)) s.unsent.push(commandId);
      });
      return refused;
    }
    const prepared = executor.prepare(commandId, p.op, p.args);
    if (!prepared.ok) {
      log('command.refused', { source, command_id: commandId, code: prepared.code }, 'warn');
      return this.receipt(commandId, 'rejected', { code: prepared.code, message: prepared.message });
    }
    // Claim the nonce (and what the operation opens) before acting: two replicas cannot both claim it, and a
    // restarted agent knows what it had accepted.
    await state.update((s) => {
      for (const [n, until] of nonces.pending) s.nonces[n] = until;
      prepared.claim?.(s);
    });
    return this.finish(commandId, p.op, () => executor.execute(commandId, p.op, p.args), source);
  }

  /** Executes an accepted command and stores its receipt (also for a plan resumed after a restart). */
  async finish(commandId: string, op: string, execute: () => Promise<unknown>, source: string): Promise<Receipt> {
    const { state, executor } = this.o;
    let receipt: Receipt;
    try {
      receipt = this.receipt(commandId, 'succeeded', { result: await execute() });
    } catch (error) {
      const e = error as ExecutionError;
      receipt = this.receipt(commandId, 'failed', {
        code: e instanceof ExecutionError ? e.code : 'execution_failed',
        message: e.message,
        ...(e instanceof ExecutionError && e.result !== undefined ? { result: e.result } : {}),
      });
    }
    await state.update((s) => {
      s.receipts[commandId] = receipt;
      if (!s.unsent.includes(commandId)) s.unsent.push(commandId);
      executor.settle?.(s, commandId);
    });
    log('command.executed', { source, command_id: commandId, op, status: receipt.status, code: receipt.code ?? null });
    if (process.env.NAVIN_AGENT_FAILPOINT === 'after-execute') {
      // A fault-injection point for the HA tests: die after running a command, before its receipt is sent.
      log('failpoint.exit', { command_id: commandId }, 'warn');
      process.exit(137);
    }
    executor.afterExecuted?.(commandId, op, receipt);
    return receipt;
  }
}

export function peekCommandId(input: unknown): string | undefined {
  try {
    const doc = typeof input === 'string' ? (JSON.parse(input) as unknown) : input;
    const id = (doc as { payload?: { command_id?: unknown } })?.payload?.command_id;
    return typeof id === 'string' && id.length > 0 && id.length <= 128 ? id : undefined;
  } catch {
    return undefined;
  }
}
