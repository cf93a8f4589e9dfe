// An agent's link to the manager, the same for both agents: long-poll the gateway, run each command once, send
// receipts and keep the unacknowledged ones queued in the durable state; after offline_after_s without the
// manager the agent is offline (sensitive commands refused), and the inbox folder stays open meanwhile.
import { GATEWAY_MAX_BODY, type Receipt } from '../main/wire/protocol';
import { CertificateSwitched, GatewayUnreachable, type GatewayClient } from './gateway-client';
import { scanInbox } from './inbox';
import { log } from './log';
import type { AgentStateBase, AgentStateStore } from './state';

export interface AgentLinkOptions {
  gateway: GatewayClient;
  state: AgentStateStore<AgentStateBase>;
  offlineAfterS: number;
  longPollS: number;
  /** Only an active agent polls and acts (the cluster agent's Lease holder; a node agent always). */
  isActive: () => boolean;
  inbox?: string;
}

/** What runs a command (the CommandRunner of either agent). */
export interface RunsCommands {
  run(input: unknown, source: 'gateway' | 'inbox'): Promise<Receipt | null>;
}

/** A receipts request stays well under the gateway's body limit. */
const BATCH_BYTES = GATEWAY_MAX_BODY / 4;

const jsonBytes = (v: unknown): number => Buffer.byteLength(JSON.stringify(v));

/**
 * A receipt as sent: one whose result alone is over the budget goes with its outcome and a note of the result's
 * size instead (the agent's state keeps it whole), or it could never be sent and would hold up the others.
 */
export function fitReceipt(r: Receipt, budget: number): Receipt {
  if (jsonBytes(r) <= budget) return r;
  const note = (result: unknown): unknown => (result === undefined ? undefined : { result_too_large: { bytes: jsonBytes(result) } });
  return { ...r, result: note(r.result), ...(r.original ? { original: { ...r.original, result: note(r.original.result) } } : {}) };
}

/** Consecutive batches of receipts, each under the budget once fitted. */
export function receiptBatches(receipts: Receipt[], budget = BATCH_BYTES): Receipt[][] {
  const batches: Receipt[][] = [];
  let batch: Receipt[] = [];
  let size = 0;
  for (const r of receipts) {
    const bytes = jsonBytes(fitReceipt(r, budget)) + 1;
    if (batch.length > 0 && size + bytes > budget) {
      batches.push(batch);
      batch = [];
      size = 0;
    }
    batch.push(r);
    size += bytes;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** Refusals given before the signature was verified. */
const UNVERIFIED: ReadonlySet<string> = new Set(['malformed', 'key_unknown', 'signature_invalid']);

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class AgentLink {
  private runner: RunsCommands | undefined;
  /** Monotonic, so a wall clock stepped forward does not take the agent offline (nor back keep it online). */
  private lastContact = performance.now();
  private connectivity: 'online' | 'offline' | 'standby' = 'online';
  private stopped = false;
  private inboxTimer: NodeJS.Timeout | undefined;
  private draining = false;
  private looping: Promise<void> | undefined;

  constructor(private readonly o: AgentLinkOptions) {}

  isOffline(): boolean {
    const silentMs = performance.now() - this.lastContact;
    const offline = silentMs > this.o.offlineAfterS * 1000;
    // Only an active agent talks to the gateway: a standby's silence says nothing about the manager, so it logs
    // `standby`, and `offline` stays the active agent's word for a manager it cannot reach.
    const state = offline && !this.o.isActive() ? 'standby' : offline ? 'offline' : 'online';
    if (state !== this.connectivity) {
      this.connectivity = state;
      log(state, { since: new Date(Date.now() - silentMs).toISOString() });
    }
    return offline;
  }

  /** Anything the manager answered counts as contact. */
  contact(): void {
    this.lastContact = performance.now();
    this.isOffline();
  }

  start(runner: RunsCommands): void {
    this.runner = runner;
    if (this.o.inbox) this.inboxTimer = setInterval(() => void this.drainInbox(), 1000);
    this.looping = this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.inboxTimer);
    this.o.gateway.close();
    await this.looping;
  }

  private async loop(): Promise<void> {
    let backoff = 500;
    while (!this.stopped) {
      if (!this.o.isActive()) {
        this.isOffline();
        await sleep(500);
        continue;
      }
      try {
        // Poll first: a command the previous leader ran without acknowledging comes back by redelivery and is
        // answered nonce_replayed with its original result; queued receipts go after each poll.
        const { commands } = await this.o.gateway.commands(this.o.longPollS);
        this.contact();
        backoff = 500;
        for (const envelope of commands) {
          if (!this.o.isActive() || this.stopped) break;
          const receipt = await this.runner!.run(envelope, 'gateway');
          if (receipt) await this.send([receipt]);
        }
        await this.flushReceipts();
      } catch (error) {
        if (this.stopped) break;
        // The poll was cut by the switch to a renewed certificate: the next one goes with it at once.
        if (error instanceof CertificateSwitched) continue;
        // Rate-limited: the manager answered, and the client holds every call until its Retry-After.
        if (error instanceof GatewayUnreachable && error.status === 429) {
          this.contact();
          log('gateway.rate_limited', { retry_after_s: error.retryAfterS }, 'warn');
          continue;
        }
        log('gateway.unreachable', { error: (error as Error).message }, 'warn');
        this.isOffline();
        await sleep(backoff);
        backoff = Math.min(backoff * 2, 5000);
      }
    }
  }

  /** Sends receipts; those the manager acknowledges leave the unsent queue. False when they stay queued. */
  async send(receipts: Receipt[]): Promise<boolean> {
    try {
      const { accepted, refused } = await this.o.gateway.receipts(receipts.map((r) => fitReceipt(r, BATCH_BYTES)));
      this.contact();
      log('receipt.sent', { count: accepted.length });
      if (refused) log('receipt.refused', { count: receipts.length - accepted.length }, 'warn');
      // Refused receipts will never be taken: they leave the queue with the accepted ones.
      const done = new Set(refused ? receipts.map((r) => r.command_id) : accepted);
      if (this.o.state.state.unsent.some((id) => done.has(id)))
        await this.o.state.update((s) => void (s.unsent = s.unsent.filter((id) => !done.has(id))));
      return true;
    } catch (error) {
      log('receipt.queued', { count: receipts.length, error: (error as Error).message }, 'warn');
      return false;
    }
  }

  /** Sends the queued receipts in batches the gateway takes (one request with them all could be refused 413). */
  async flushReceipts(): Promise<void> {
    const { unsent, receipts } = this.o.state.state;
    const queued = unsent.map((id) => receipts[id]).filter((r) => r !== undefined);
    for (const batch of receiptBatches(queued)) if (!(await this.send(batch))) return;
  }

  private async drainInbox(): Promise<void> {
    // One scan at a time: a command longer than the scan interval was run again (answered nonce_replayed, and
    // that refusal written over its receipt file).
    if (this.draining || !this.o.inbox || !this.o.isActive() || !this.runner) return;
    this.draining = true;
    try {
      await scanInbox(this.o.inbox, async (text) => {
        const receipt = await this.runner!.run(text, 'inbox');
        // A file whose signature did not verify names a command id anyone could have written: its refusal is
        // answered in the inbox only, or a forged file could close a pending command on the manager.
        if (receipt && !UNVERIFIED.has(receipt.code ?? '') && receipt.code !== 'manager_unreachable' && !this.isOffline())
          await this.send([receipt]);
        return receipt;
      });
    } catch (e) {
      log('inbox.failed', { error: (e as Error).message }, 'warn');
    } finally {
      this.draining = false;
    }
  }
}
