// Writes ManagedComponent resources, in the managed namespace only: create or replace to match a spec,
// delete by name, list what is there.
import { CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import type { ManagedComponentSpec } from '../main/wire/protocol';

const GROUP = 'platform.navin.ai';
const VERSION = 'v1alpha1';
const PLURAL = 'managedcomponents';
export const MANAGED_BY = 'app.kubernetes.io/managed-by';

interface ManagedComponent {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec: ManagedComponentSpec;
}

const httpCode = (e: unknown): number | undefined => {
  const c = (e as { code?: unknown })?.code;
  return typeof c === 'number' ? c : undefined;
};

/** Specs compare as canonical JSON would: key order does not matter. */
export function sameSpec(a: unknown, b: unknown): boolean {
  const norm = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(norm)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v as Record<string, unknown>)
              .sort(([x], [y]) => (x < y ? -1 : 1))
              .map(([k, x]) => [k, norm(x)]),
          )
        : v;
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

export class Components {
  private readonly api: CustomObjectsApi;

  constructor(
    kc: KubeConfig,
    readonly namespace: string,
  ) {
    this.api = kc.makeApiClient(CustomObjectsApi);
  }

  private base() {
    return { group: GROUP, version: VERSION, namespace: this.namespace, plural: PLURAL };
  }

  async list(): Promise<Map<string, ManagedComponent>> {
    const res = (await this.api.listNamespacedCustomObject(this.base())) as { items: ManagedComponent[] };
    return new Map(res.items.map((i) => [i.metadata.name, i]));
  }

  /** Makes the resource equal to spec; returns what was done. */
  async apply(name: string, spec: ManagedComponentSpec, generation: number): Promise<'created' | 'updated' | 'unchanged'> {
    let current: ManagedComponent | undefined;
    try {
      current = (await this.api.getNamespacedCustomObject({ ...this.base(), name })) as ManagedComponent;
    } catch (error) {
      if (httpCode(error) !== 404) throw error;
    }
    const metadata = {
      name,
      namespace: this.namespace,
      labels: { [MANAGED_BY]: 'navin-cluster-agent' },
      annotations: { 'platform.navin.ai/desired-generation': String(generation) },
    };
    if (!current) {
      await this.api.createNamespacedCustomObject({
        ...this.base(),
        body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'ManagedComponent', metadata, spec },
      });
      return 'created';
    }
    if (sameSpec(current.spec, spec)) return 'unchanged';
    await this.api.replaceNamespacedCustomObject({
      ...this.base(),
      name,
      body: { ...current, metadata: { ...current.metadata, ...metadata, resourceVersion: current.metadata.resourceVersion }, spec },
    });
    return 'updated';
  }

  async remove(name: string): Promise<'deleted' | 'absent'> {
    try {
      await this.api.deleteNamespacedCustomObject({ ...this.base(), name });
      return 'deleted';
    } catch (error) {
      if (httpCode(error) === 404) return 'absent';
      throw error;
    }
  }
}
