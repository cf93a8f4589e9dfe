// The Navin Cluster Agent: the replica holding the Lease long-polls the gateway, runs each signed command
// once, reports inventory and sends receipts; it keeps the desired state enforced and, after offline_after_s
// without the manager, refuses sensitive operations while queueing receipts for its return.
import type { KubeConfig } from '@kubernetes/client-node';
import { readInventory } from '../main/wire/inventory';
import { AGENT_LEASE_NAME, AGENT_STATE_NAME } from '../main/wire/protocol';
import { ClusterExecutor } from './cluster-executor';
import { CommandRunner } from './commands';
import { Components } from './components';
import { gatewayClient, type CertificateChannel, type GatewayClient } from './gateway-client';
import type { Identity } from './identity';
import { LeaseElector } from './lease-election';
import { AgentLink } from './link';
import { certificateRenewer, type CertificateRenewer, type RenewalOptions } from './certificate-renewer';
import { log } from './log';
import { caTrustOptions, withCaTrust } from './ca-trust';
import { Reconciler } from './reconciler';
import { ConfigMapStateStore, type AgentState } from './state-store';

export interface AgentOptions {
  identity: Identity;
  kc: KubeConfig;
  replica: string;
  version: string;
  inbox?: string;
  /** Where the identity was read: a CA rotation's trust update keeps the new CAs there (none: it refuses them). */
  identityDir?: string;
  /** Where the renewed certificate is kept (its identity Secret in a pod); none: it does not renew. */
  renewal?: RenewalOptions;
}

export class ClusterAgent {
  private readonly gateway: GatewayClient & CertificateChannel;
  private readonly elector: LeaseElector;
  private readonly state: ConfigMapStateStore;
  private readonly runner: CommandRunner<AgentState>;
  private readonly executor: ClusterExecutor;
  private readonly reconciler: Reconciler;
  private readonly components: Components;
  private readonly link: AgentLink;
  /** Renews the client certificate before it expires, on the Lease holder (when given its identity folder). */
  readonly renewer: CertificateRenewer | undefined;

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
    this.state = new ConfigMapStateStore(o.kc, config.namespace, AGENT_STATE_NAME);
    this.components = new Components(o.kc, config.namespace);
    this.link = new AgentLink({
      gateway: this.gateway,
      state: this.state,
      offlineAfterS: config.offline_after_s,
      longPollS: config.long_poll_s,
      isActive: () => this.elector.isLeader(),
      inbox: o.inbox,
    });
    this.executor = new ClusterExecutor({
      state: this.state,
      components: this.components,
      kc: o.kc,
      onInventory: (inventory) => this.report(inventory),
      onDesiredChanged: () => {
        this.reconciler.kick();
        void this.reportInventory();
      },
    });
    this.runner = new CommandRunner({
      identity: o.identity,
      state: this.state,
      executor: withCaTrust(
        this.executor,
        caTrustOptions(o.identity, this.gateway, o.identityDir, () => this.renewer),
      ),
      replica: o.replica,
      isOffline: () => this.link.isOffline(),
    });
    this.executor.runner = this.runner;
    this.reconciler = new Reconciler({
      kc: o.kc,
      components: this.components,
      desired: () => this.state.state.desired_state,
      verify: (d) => this.executor.verifyDesired(d),
      isLeader: () => this.elector.isLeader(),
    });
    this.renewer = certificateRenewer(o.renewal, {
      identity: o.identity,
      gateway: this.gateway,
      commonName: config.cluster_id,
      isActive: () => this.elector.isLeader(),
    });
  }

  isOffline(): boolean {
    return this.link.isOffline();
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
        void this.renewer?.check();
      }
    });
    this.elector.start();
    this.reconciler.start();
    this.link.start(this.runner);
    this.renewer?.start();
  }

  async stop(): Promise<void> {
    this.reconciler.stop();
    this.renewer?.stop();
    await this.elector.stop();
    await this.link.stop();
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
    this.link.contact();
  }

  private async reportInventory(): Promise<void> {
    try {
      await this.report(await readInventory(this.o.kc));
      log('inventory.reported');
    } catch (error) {
      log('inventory.report_failed', { error: (error as Error).message }, 'warn');
    }
  }
}
