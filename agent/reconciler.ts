// Keeps the ManagedComponents equal to the last approved desired state, online or not: a watch notices a
// component changed or deleted by hand and restores it within seconds; a periodic pass covers missed events.
// A desired state whose signature no longer verifies is never applied.
import { Watch, type KubeConfig } from '@kubernetes/client-node';
import type { SignedDocument } from '../main/wire/envelope';
import type { DesiredStateBody } from '../main/wire/protocol';
import { MANAGED_BY, type Components } from './components';
import { log } from './log';
import { singleFlight } from './single-flight';

export interface ReconcilerOptions {
  kc: KubeConfig;
  components: Components;
  /** The last approved desired state, or null. */
  desired: () => SignedDocument | null;
  /** Re-verifies a desired state document; null when it does not verify. */
  verify: (doc: SignedDocument) => DesiredStateBody | null;
  isLeader: () => boolean;
  resyncMs?: number;
}

export class Reconciler {
  private timer: NodeJS.Timeout | undefined;
  private watchAbort: { abort(): void } | undefined;
  private stopped = false;
  /** Runs one pass now, or right after the current one. */
  readonly kick = singleFlight(
    () => this.pass(),
    (error) => log('reconcile.failed', { error: (error as Error).message }, 'warn'),
    () => this.stopped,
  );

  constructor(private readonly opts: ReconcilerOptions) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), this.opts.resyncMs ?? 10_000);
    void this.watch();
    this.kick();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.watchAbort?.abort();
  }

  private async pass(): Promise<void> {
    if (!this.opts.isLeader()) return;
    const doc = this.opts.desired();
    if (!doc) return;
    const desired = this.opts.verify(doc);
    if (!desired) {
      log('reconcile.refused', { reason: 'desired_state_invalid' }, 'warn');
      return;
    }
    const present = await this.opts.components.list();
    for (const [name, spec] of Object.entries(desired.components)) {
      const done = await this.opts.components.apply(name, spec, desired.generation);
      if (done !== 'unchanged') log('reconcile.restored', { component: name, action: done, generation: desired.generation });
    }
    for (const [name, mc] of present) {
      if (!(name in desired.components) && mc.metadata.labels?.[MANAGED_BY] === 'navin-cluster-agent') {
        await this.opts.components.remove(name);
        log('reconcile.removed', { component: name, generation: desired.generation });
      }
    }
  }

  private async watch(): Promise<void> {
    while (!this.stopped) {
      try {
        await new Promise<void>((resolve) => {
          void new Watch(this.opts.kc)
            .watch(
              `/apis/platform.navin.ai/v1alpha1/namespaces/${this.opts.components.namespace}/managedcomponents`,
              {},
              () => this.kick(),
              () => resolve(),
            )
            .then((req) => {
              this.watchAbort = req;
              if (this.stopped) req.abort();
            })
            .catch(() => resolve());
        });
      } catch {
        // The periodic pass covers the gap; reconnect after a pause.
      }
      if (!this.stopped) await new Promise((r) => setTimeout(r, 1000));
    }
  }
}
