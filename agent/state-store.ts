// The cluster agent's durable state in the ConfigMap navin-cluster-agent-state: used nonces, the receipt of
// every command run, the receipts not yet acknowledged by the manager, and the last approved desired state.
// Every write carries the resourceVersion read, so two replicas cannot both win; a new leader continues from it.
import { CoreV1Api, type KubeConfig, type V1ConfigMap } from '@kubernetes/client-node';
import type { SignedDocument } from '../main/wire/envelope';
import { deadline } from './kube-deadline';
import { pruneState, StateCorrupt, type AgentStateBase, type AgentStateStore } from './state';

export interface AgentState extends AgentStateBase {
  desired_state: SignedDocument | null;
}

const KEY = 'state.json';
/** A state read or write the API server has not answered by then failed (the command queue waits on it). */
const API_CALL_MS = 15_000;
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

export class ConfigMapStateStore implements AgentStateStore<AgentState> {
  private readonly api: CoreV1Api;
  private cm: V1ConfigMap | undefined;
  private writing: Promise<void> = Promise.resolve();
  state: AgentState = empty();

  constructor(
    kc: KubeConfig,
    private readonly namespace: string,
    private readonly name: string,
    private readonly callMs = API_CALL_MS,
  ) {
    this.api = kc.makeApiClient(CoreV1Api);
  }

  /** Reads the ConfigMap (once the writes under way are done), creating it empty the first time. */
  async load(): Promise<AgentState> {
    await this.writing;
    return this.read();
  }

  private async read(): Promise<AgentState> {
    try {
      this.cm = await this.api.readNamespacedConfigMap({ name: this.name, namespace: this.namespace }, deadline(this.callMs));
    } catch (error) {
      if (httpCode(error) !== 404) throw error;
      try {
        this.cm = await this.api.createNamespacedConfigMap(
          {
            namespace: this.namespace,
            body: { metadata: { name: this.name, namespace: this.namespace }, data: { [KEY]: JSON.stringify(empty()) } },
          },
          deadline(this.callMs),
        );
      } catch (e) {
        if (httpCode(e) !== 409) throw e;
        this.cm = await this.api.readNamespacedConfigMap({ name: this.name, namespace: this.namespace }, deadline(this.callMs));
      }
    }
    const text = this.cm.data?.[KEY];
    let parsed: unknown = {};
    try {
      if (text) parsed = JSON.parse(text);
    } catch (error) {
      throw new StateCorrupt(
        `the ConfigMap ${this.namespace}/${this.name} holds no valid ${KEY} (${(error as Error).message}); delete it to start afresh, forgetting the nonces used`,
      );
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new StateCorrupt(`the ConfigMap ${this.namespace}/${this.name} holds no state object in ${KEY}`);
    this.state = { ...empty(), ...(parsed as Partial<AgentState>) };
    return this.state;
  }

  /**
   * Applies a change and writes it with the resourceVersion last read; a conflict (another replica wrote)
   * reloads and throws. This replica's own writes go one at a time, each on the state the previous one left:
   * two at once (a receipt sent while another is stored) conflicted with each other, and the loser was lost.
   */
  update(change: (s: AgentState) => void): Promise<void> {
    const next = this.writing.then(() => this.write(change));
    this.writing = next.catch(() => undefined);
    return next;
  }

  private async write(change: (s: AgentState) => void): Promise<void> {
    if (!this.cm) await this.read();
    const next: AgentState = JSON.parse(JSON.stringify(this.state)) as AgentState;
    change(next);
    pruneState(next);
    try {
      this.cm = await this.api.replaceNamespacedConfigMap(
        {
          name: this.name,
          namespace: this.namespace,
          body: { ...this.cm!, data: { ...this.cm!.data, [KEY]: JSON.stringify(next) } },
        },
        deadline(this.callMs),
      );
      this.state = next;
    } catch (error) {
      if (httpCode(error) === 409) {
        await this.read();
        throw new StateConflict();
      }
      throw error;
    }
  }
}
