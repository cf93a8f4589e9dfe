// The Navin Cluster Agent: the replica holding the Lease long-polls the gateway, runs each signed command
// once, reports inventory and sends receipts; it keeps the desired state enforced and, after offline_after_s
// without the manager, refuses sensitive operations while queueing receipts for its return.
import type { KubeConfig } from '@kubernetes/client-node';
import { readInventory } from '../main/wire/inventory';
import { AGENT_LEASE_NAME, AGENT_STATE_NAME, type Receipt } from '../main/wire/protocol';
import { CommandRunner } from './commands';
import { Components } from './components';
import { gatewayClient, type GatewayClient } from './gateway-client';
import type { Identity } from './identity';
import { scanInbox } from './inbox';
import { LeaseElector } from './lease-election';
import { log } from './log';
import { Reconciler } from './reconciler';
import { StateStore } from './state-store';

export interface AgentOptions {
  identity: Identity;
  kc: KubeConfig;
  replica: string;
  version: string;
  inbox?: string;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class ClusterAgent {
  private readonly gateway: GatewayClient;
  private readonly elector: LeaseElector;
  private readonly state: StateStore;
  private readonly runner: CommandRunner;
  private readonly reconciler: Reconciler;
  private readonly components: Components;
  private lastContact = Date.now();
  private connectivity: 'online' | 'offline' | 'standby' = 'online';
  private stopped = false;
  private inboxTimer: NodeJS.Timeout | undefined;

  constructor(private readonly o: AgentOptions) {
    const { config } = o.identity;
    this.gateway = gatewayClient(o.identity, o.replica, o.version);
    this.elector = new LeaseElector({
      kc: o.kc,
      namespace: config.namespace,
      name: AGENT_LEASE_NAME,
      identity: o.replica,
      leaseDurationS: config.lease_duration_s,
    });
    this.state = new StateStore(o.kc, config.namespace, AGENT_STATE_NAME);
    const components = new Components(o.kc, config.namespace);
    this.components = components;
    this.runner = new CommandRunner({
      identity: o.identity,
      state: this.state,
      components,
      kc: o.kc,
      replica: o.replica,
      isOffline: () => this.isOffline(),
      onInventory: (inventory) => this.report(inventory),
      onDesiredChanged: () => {
        this.reconciler.kick();
        void this.reportInventory();
      },
    });
    this.reconciler = new Reconciler({
      kc: o.kc,
      components,
      desired: () => this.state.state.desired_state,
      verify: (d) => this.runner.verifyDesired(d),
      isLeader: () => this.elector.isLeader(),
    });
  }

  isOffline(): boolean {
    const offline = Date.now() - this.lastContact > this.o.identity.config.offline_after_s * 1000;
    // Only the leader talks to the gateway: a standby's silence says nothing about the manager, so it logs
    // `standby`, and `offline` stays the leader's word for a manager it cannot reach.
    const state = offline && !this.elector.isLeader() ? 'standby' : offline ? 'offline' : 'online';
    if (state !== this.connectivity) {
      this.connectivity = state;
      log(state, { since: new Date(this.lastContact).toISOString() });
    }
    return offline;
  }

  private contact(): void {
    this.lastContact = Date.now();
    this.isOffline();
  }

  async start(): Promise<void> {
    const { config } = this.o.identity;
    log('started', {
      version: this.o.version,
      replica: this.o.replica,
      cluster_id: config.cluster_id,
      namespace: config.namespace,
      gateway: config.gateway_url,
    });
    this.elector.onChange((leader) => {
      if (leader) {
        void this.state.load().then(
          () => this.reconciler.kick(),
          (e: Error) => log('state.load_failed', { error: e.message }, 'warn'),
        );
        void this.reportInventory();
      }
    });
    this.elector.start();
    this.reconciler.start();
    if (this.o.inbox) this.inboxTimer = setInterval(() => void this.drainInbox(), 1000);
    void this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.inboxTimer);
    this.reconciler.stop();
    await this.elector.stop();
    this.gateway.close();
  }

  private async loop(): Promise<void> {
    let backoff = 500;
    while (!this.stopped) {
      if (!this.elector.isLeader()) {
        this.isOffline();
        await sleep(500);
        continue;
      }
      try {
        // Poll first: a command the previous leader ran without acknowledging comes back by redelivery and is
        // answered nonce_replayed with its original result; queued receipts go after each poll.
        const { commands } = await this.gateway.commands(this.o.identity.config.long_poll_s);
        this.contact();
        backoff = 500;
        for (const envelope of commands) {
          if (!this.elector.isLeader()) break;
          const receipt = await this.runner.run(envelope, 'gateway');
          if (receipt) await this.send([receipt]);
        }
        await this.flushReceipts();
      } catch (error) {
        log('gateway.unreachable', { error: (error as Error).message }, 'warn');
        this.isOffline();
        await sleep(backoff);
        backoff = Math.min(backoff * 2, 5000);
      }
    }
  }

  /** Sends receipts; those the manager acknowledges leave the unsent queue. */
  private async send(receipts: Receipt[]): Promise<void> {
    try {
      const { accepted, refused } = await this.gateway.receipts(receipts);
      this.contact();
      log('receipt.sent', { count: accepted.length });
      if (refused) log('receipt.refused', { count: receipts.length - accepted.length }, 'warn');
      // Refused receipts will never be taken: they leave the queue with the accepted ones.
      const done = new Set(refused ? receipts.map((r) => r.command_id) : accepted);
      if (this.state.state.unsent.some((id) => done.has(id)))
        await this.state.update((s) => void (s.unsent = s.unsent.filter((id) => !done.has(id))));
    } catch (error) {
      log('receipt.queued', { count: receipts.length, error: (error as Error).message }, 'warn');
    }
  }

  private async flushReceipts(): Promise<void> {
    const { unsent, receipts } = this.state.state;
    const queued = unsent.map((id) => receipts[id]).filter((r) => r !== undefined);
    if (queued.length > 0) await this.send(queued);
  }

  private async report(inventory: unknown): Promise<void> {
    // The components as they stand in the cluster travel with the inventory: the console's observed state.
    const present = await this.components.list();
    const components = Object.fromEntries(
      [...present].map(([name, mc]) => [name, { spec: mc.spec, status: (mc as { status?: unknown }).status ?? null }]),
    );
    await this.gateway.report({
      replica: this.o.replica,
      agent_version: this.o.version,
      leader: this.elector.isLeader(),
      inventory,
      components,
    });
    this.contact();
  }

  private async reportInventory(): Promise<void> {
    try {
      await this.report(await readInventory(this.o.kc));
      log('inventory.reported');
    } catch (error) {
      log('inventory.report_failed', { error: (error as Error).message }, 'warn');
    }
  }

  private async drainInbox(): Promise<void> {
    if (!this.o.inbox || !this.elector.isLeader()) return;
    await scanInbox(this.o.inbox, async (text) => {
      const receipt = await this.runner.run(text, 'inbox');
      if (receipt && receipt.code !== 'manager_unreachable' && !this.isOffline()) await this.send([receipt]);
      return receipt;
    }).catch((e: Error) => log('inbox.failed', { error: e.message }, 'warn'));
  }
}
