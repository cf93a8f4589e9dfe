// The Navin Node Agent: one per host, always active. It long-polls the gateway on the node-agent routes, runs
// signed plans task by task (resuming an unfinished one after a restart), reports the host's facts and the
// files and units it manages, and shares the cluster agent's link, runner, inbox and offline rules.
import { NODE_AGENT_PATHS, OP_PLAN_EXECUTE, type HostReportRequest, type NodeAgentConfigBody } from '../../main/wire/node-agent';
import type { TaskOutcome } from '../../main/wire/plan';
import { CommandRunner } from '../commands';
import { gatewayClient, type CertificateChannel, type GatewayClient } from '../gateway-client';
import type { Identity } from '../identity';
import { AgentLink } from '../link';
import { log } from '../log';
import { caTrustOptions, withCaTrust } from '../ca-trust';
import { readFactsWithin } from './facts';
import { sampleHost } from './host-metrics';
import { readUnits } from './unit-status';
import { FileStateStore, type NodeState } from './file-state';
import { LivenessWatcher } from './liveness-watcher';
import { ManagedFs } from './managed-fs';
import { NodeExecutor } from './plan-executor';
import { runCheck } from '../checks';
import type { CheckHook } from './tasks';
import { certificateRenewer, type CertificateRenewer, type RenewalOptions } from '../certificate-renewer';

/** How long the facts may take to read before a report goes without (see readFactsWithin). */
const FACTS_READ_MS = 30_000;

export interface NodeAgentOptions {
  identity: Identity<NodeAgentConfigBody>;
  version: string;
  stateDir: string;
  inbox?: string;
  /** Where the identity was read: a CA rotation's trust update keeps the new CAs there (none: it refuses them). */
  identityDir?: string;
  /** Where the host's "/" is: "/" in production, a folder in tests. */
  prefix?: string;
  systemctl?: string;
  /** Default: the service checks of agent/checks. */
  runCheck?: CheckHook;
  /** Where the renewed certificate is kept (its identity folder); none: it does not renew. */
  renewal?: RenewalOptions;
}

export class NodeAgent {
  readonly state: FileStateStore;
  private readonly gateway: GatewayClient & CertificateChannel;
  private readonly link: AgentLink;
  private readonly executor: NodeExecutor;
  private readonly runner: CommandRunner<NodeState>;
  private reportTimer: NodeJS.Timeout | undefined;
  private readonly watcher: LivenessWatcher;
  private reporting: Promise<void> | undefined;
  private reportAgain = false;
  /** Renews the client certificate before it expires (when given its identity folder). */
  readonly renewer: CertificateRenewer | undefined;

  constructor(private readonly o: NodeAgentOptions) {
    const { config } = o.identity;
    this.state = new FileStateStore(o.stateDir);
    this.gateway = gatewayClient(o.identity, config.host_name, o.version, NODE_AGENT_PATHS);
    this.link = new AgentLink({
      gateway: this.gateway,
      state: this.state,
      offlineAfterS: config.offline_after_s,
      longPollS: config.long_poll_s,
      isActive: () => true,
      inbox: o.inbox,
    });
    this.executor = new NodeExecutor({
      state: this.state,
      fs: new ManagedFs(o.prefix ?? '/', config.managed_roots),
      prefix: o.prefix ?? '/',
      systemctl: o.systemctl ?? 'systemctl',
      runCheck: o.runCheck ?? ((c) => runCheck(c.kind, c.params)),
      onProgress: (id, total, task) => this.progress(id, total, task),
      onFacts: async () => {
        const reported = await this.report().then(
          () => true,
          () => false,
        );
        return { reported, facts: this.lastFacts };
      },
      onManagedChanged: () => void this.report().catch(() => undefined),
    });
    this.watcher = new LivenessWatcher({
      watches: () => this.state.state.watches,
      runCheck: o.runCheck ?? ((c) => runCheck(c.kind, c.params)),
      onChange: () => void this.report().catch(() => undefined),
    });
    this.runner = new CommandRunner({
      identity: o.identity,
      state: this.state,
      executor: withCaTrust(
        this.executor,
        caTrustOptions(o.identity, this.gateway, o.identityDir, () => this.renewer),
      ),
      replica: config.host_name,
      isOffline: () => this.link.isOffline(),
    });
    this.renewer = certificateRenewer(o.renewal, {
      identity: o.identity,
      gateway: this.gateway,
      commonName: config.host_id,
      isActive: () => true,
    });
  }

  private lastFacts: unknown = null;

  async start(): Promise<void> {
    const { config } = this.o.identity;
    await this.state.load();
    log('started', {
      version: this.o.version,
      host_id: config.host_id,
      host: config.host_name,
      cluster_id: config.cluster_id,
      gateway: config.gateway_url,
      managed_roots: config.managed_roots.join(','),
    });
    void this.report().catch(() => undefined);
    this.reportTimer = setInterval(() => void this.report().catch(() => undefined), config.report_interval_s * 1000);
    this.link.start(this.runner);
    this.watcher.start();
    this.renewer?.start();
    // A resume that cannot store its receipt (a read-only or full disk) is logged, not an unhandled rejection
    // that ends the agent: the plan is resumed again at the next start.
    for (const id of this.executor.unfinished())
      void this.resume(id).catch((e: Error) => log('plan.resume_failed', { command_id: id, error: e.message }, 'error'));
  }

  async stop(): Promise<void> {
    clearInterval(this.reportTimer);
    this.watcher.stop();
    this.renewer?.stop();
    await this.link.stop();
  }

  /** A plan the agent accepted before it stopped: its completed tasks stay done, the rest run now. */
  private async resume(commandId: string): Promise<void> {
    log('plan.resumed', {
      command_id: commandId,
      done: this.state.state.plans[commandId]?.tasks.filter((t) => t.status === 'succeeded').length,
    });
    const receipt = await this.runner.serialized(() =>
      this.runner.finish(commandId, OP_PLAN_EXECUTE, () => this.executor.execute(commandId, OP_PLAN_EXECUTE), 'resume'),
    );
    if (!this.link.isOffline()) await this.link.send([receipt]);
  }

  private async progress(commandId: string, total: number, task: TaskOutcome): Promise<void> {
    if (this.link.isOffline()) return;
    try {
      await this.gateway.progress({ command_id: commandId, total, task });
      this.link.contact();
    } catch (error) {
      log('progress.unsent', { command_id: commandId, task: task.id, error: (error as Error).message }, 'warn');
    }
  }

  /**
   * Reads the facts and reports them with the managed files and units and the liveness outcomes; one report at
   * a time, and one more after it when asked meanwhile (its body was read before what changed).
   */
  report(): Promise<void> {
    if (this.reporting) {
      this.reportAgain = true;
      return this.reporting;
    }
    this.reporting = (async () => {
      try {
        const { managed, watches } = this.state.state;
        const scrape = Object.values(watches).find((w) => w.scrape)?.scrape;
        const [facts, units, metrics] = await Promise.all([
          readFactsWithin(FACTS_READ_MS),
          readUnits(Object.keys(managed.units), this.o.systemctl),
          sampleHost(scrape),
        ]);
        this.lastFacts = facts;
        const body: HostReportRequest = {
          agent_version: this.o.version,
          facts,
          managed,
          liveness: this.watcher.outcomes(),
          units,
          metrics,
        };
        await this.gateway.report(body);
        this.link.contact();
        log('facts.reported', { hostname: facts.hostname, architecture: facts.architecture });
      } catch (error) {
        log('facts.report_failed', { error: (error as Error).message }, 'warn');
        throw error;
      } finally {
        this.reporting = undefined;
        if (this.reportAgain) {
          this.reportAgain = false;
          void this.report().catch(() => undefined);
        }
      }
    })();
    return this.reporting;
  }
}
