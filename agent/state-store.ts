// The agent's durable state in the ConfigMap navin-cluster-agent-state: used nonces, the receipt of every
// command run, the receipts not yet acknowledged by the manager, and the last approved desired state. Every
// write carries the resourceVersion read, so two replicas cannot both win; a new leader continues from it.
import { CoreV1Api, type KubeConfig, type V1ConfigMap } from '@kubernetes/client-node';
import type { NonceStore, SignedDocument } from '../main/wire/envelope';
import type { Receipt } from '../main/wire/protocol';

export interface AgentState {
  /** nonce → keep until (RFC 3339); pruned once past. */
  nonces: Record<string, string>;
  /** command_id → the receipt of its one execution. */
  receipts: Record<string, Receipt>;
  /** command ids whose receipt the manager has not acknowledged yet. */
  unsent: string[];
  desired_state: SignedDocument | null;
}

const KEY = 'state.json';
const empty = (): AgentState => ({ nonces: {}, receipts: {}, unsent: [], desired_state: null });
const httpCode = (e: unknown): number | undefined => {
  const c = (e as { code?: unknown })?.code;
  return typeof c === 'number' ? c : undefined;
};

export class StateConflict extends Error {
  constructor() {
    super('the state ConfigMap was changed by another writer');
  }
}

export class StateStore {
  private readonly api: CoreV1Api;
  private cm: V1ConfigMap | undefined;
  state: AgentState = empty();

  constructor(
    kc: KubeConfig,
    private readonly namespace: string,
    private readonly name: string,
  ) {
    this.api = kc.makeApiClient(CoreV1Api);
  }

  /** Reads the ConfigMap, creating it empty the first time. */
  async load(): Promise<AgentState> {
    try {
      this.cm = await this.api.readNamespacedConfigMap({ name: this.name, namespace: this.namespace });
    } catch (error) {
      if (httpCode(error) !== 404) throw error;
      try {
        this.cm = await this.api.createNamespacedConfigMap({
          namespace: this.namespace,
          body: { metadata: { name: this.name, namespace: this.namespace }, data: { [KEY]: JSON.stringify(empty()) } },
        });
      } catch (e) {
        if (httpCode(e) !== 409) throw e;
        this.cm = await this.api.readNamespacedConfigMap({ name: this.name, namespace: this.namespace });
      }
    }
    const text = this.cm.data?.[KEY];
    this.state = text ? { ...empty(), ...(JSON.parse(text) as Partial<AgentState>) } : empty();
    return this.state;
  }

  /** Applies a change and writes it with the resourceVersion last read; a conflict reloads and throws. */
  async update(change: (s: AgentState) => void): Promise<void> {
    if (!this.cm) await this.load();
    const next: AgentState = JSON.parse(JSON.stringify(this.state)) as AgentState;
    change(next);
    const now = new Date().toISOString();
    for (const [n, until] of Object.entries(next.nonces)) if (until < now) delete next.nonces[n];
    try {
      this.cm = await this.api.replaceNamespacedConfigMap({
        name: this.name,
        namespace: this.namespace,
        body: { ...this.cm!, data: { ...this.cm!.data, [KEY]: JSON.stringify(next) } },
      });
      this.state = next;
    } catch (error) {
      if (httpCode(error) === 409) {
        await this.load();
        throw new StateConflict();
      }
      throw error;
    }
  }
}

/** The verifier's view of the nonces: reads from the loaded state; remembering happens in the state write. */
export class StateNonces implements NonceStore {
  readonly pending = new Map<string, string>();
  constructor(private readonly store: StateStore) {}
  seen(nonce: string): boolean {
    return nonce in this.store.state.nonces || this.pending.has(nonce);
  }
  remember(nonce: string, keepUntil: Date): void {
    this.pending.set(nonce, keepUntil.toISOString());
  }
  prune(now: Date): number {
    let n = 0;
    for (const [k, v] of this.pending) if (v < now.toISOString()) n += Number(this.pending.delete(k));
    return n;
  }
}
