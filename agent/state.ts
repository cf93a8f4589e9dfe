// What every agent keeps durably, behind one small interface: used nonces, the receipt of every command run,
// the receipts the manager has not acknowledged yet, plus whatever the agent kind adds. The cluster agent keeps
// it in a ConfigMap (state-store.ts), the node agent in a file written atomically (node/file-state.ts).
import type { NonceStore } from '../main/wire/envelope';
import type { Receipt } from '../main/wire/protocol';

export interface AgentStateBase {
  /** nonce → keep until (RFC 3339); pruned once past. */
  nonces: Record<string, string>;
  /** command_id → the receipt of its one execution. */
  receipts: Record<string, Receipt>;
  /** command ids whose receipt the manager has not acknowledged yet. */
  unsent: string[];
}

/** The stored state cannot be read: the agent refuses to act rather than forget which nonces it used. */
export class StateCorrupt extends Error {
  readonly code = 'state_corrupt';
}

export interface AgentStateStore<S extends AgentStateBase = AgentStateBase> {
  /** The state as last loaded or written. */
  readonly state: S;
  /** Reads the stored state (creating it empty the first time). */
  load(): Promise<S>;
  /** Applies a change to a copy and stores it; the in-memory state changes only once the write succeeded. */
  update(change: (s: S) => void): Promise<void>;
}

/**
 * How long a sent receipt is kept: well past the longest validity the manager signs (6 h) and its skew, so a
 * replay whose nonce was dropped (a wall clock stepped forward, then back) is still answered with its receipt.
 */
export const RECEIPT_KEEP_MS = 7 * 24 * 3600 * 1000;

/**
 * Drops nonces past their retention (past not_after + skew their envelope is refused as expired anyway) and sent
 * receipts past RECEIPT_KEEP_MS, so the state stays bounded (a ConfigMap holds 1 MiB). Times are compared as
 * numbers: an ISO text of a year past 9999 ("+010000-…") sorts before every real date.
 */
export function pruneState(state: AgentStateBase, nowMs = Date.now()): void {
  for (const [n, until] of Object.entries(state.nonces)) if (!(Date.parse(until) >= nowMs)) delete state.nonces[n];
  const unsent = new Set(state.unsent);
  for (const [id, r] of Object.entries(state.receipts))
    if (!unsent.has(id) && !(Date.parse(r.executed_at) >= nowMs - RECEIPT_KEEP_MS)) delete state.receipts[id];
}

/** The verifier's view of the nonces: reads from the loaded state; remembering happens in the state write. */
export class StateNonces implements NonceStore {
  readonly pending = new Map<string, string>();
  constructor(private readonly store: AgentStateStore) {}
  seen(nonce: string): boolean {
    return nonce in this.store.state.nonces || this.pending.has(nonce);
  }
  remember(nonce: string, keepUntil: Date): void {
    this.pending.set(nonce, keepUntil.toISOString());
  }
  prune(now: Date): number {
    let n = 0;
    for (const [k, v] of this.pending) if (!(Date.parse(v) >= now.getTime())) n += Number(this.pending.delete(k));
    return n;
  }
}
