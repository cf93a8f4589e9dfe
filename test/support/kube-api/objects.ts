// The store-level API for tests: read and write objects directly as admin, with the server's semantics and events.
import type { Engine } from './engine.js';
import { MERGE_PATCH } from './patch.js';
import type { KubeObject, ResourceType, StoredObject } from './types.js';

export interface AdminObjects {
  get(apiVersion: string, kind: string, name: string, namespace?: string): StoredObject | undefined;
  list(apiVersion: string, kind: string, namespace?: string): StoredObject[];
  /** POST semantics, but the given status is kept (like a controller writing it right after). */
  create(obj: KubeObject): StoredObject;
  /** Create, or replace whatever the resourceVersion; status included. For test setup and simulated controllers. */
  put(obj: KubeObject): StoredObject;
  /** PATCH semantics (merge patch by default); `subresource` 'status' patches the status. */
  patch(
    apiVersion: string,
    kind: string,
    name: string,
    namespace: string | undefined,
    patch: unknown,
    contentType?: string,
    subresource?: string,
  ): StoredObject;
  /** DELETE semantics (finalizers, namespace cascade); false when it did not exist. */
  delete(apiVersion: string, kind: string, name: string, namespace?: string): boolean;
  /** The current global resourceVersion. */
  resourceVersion(): string;
}

export const adminObjects = (engine: Engine): AdminObjects => {
  const type = (apiVersion: string, kind: string): ResourceType => {
    const rt = engine.registry.byKind(apiVersion, kind);
    if (!rt) throw new Error(`no resource serves ${apiVersion} ${kind}`);
    return rt;
  };
  const ns = (rt: ResourceType, o: KubeObject | string | undefined): string | undefined => {
    if (!rt.namespaced) return undefined;
    return (typeof o === 'string' ? o : o?.metadata?.namespace) || 'default';
  };
  return {
    get: (apiVersion, kind, name, namespace) => {
      const rt = type(apiVersion, kind);
      return engine.find(rt, ns(rt, namespace), name);
    },
    list: (apiVersion, kind, namespace) => {
      const rt = type(apiVersion, kind);
      return engine.list(rt, rt.namespaced ? namespace : undefined).items;
    },
    create: (obj) => {
      const rt = type(String(obj.apiVersion), String(obj.kind));
      return engine.create(rt, ns(rt, obj), obj, { keepStatus: true }).object;
    },
    put: (obj) => {
      const rt = type(String(obj.apiVersion), String(obj.kind));
      const name = obj.metadata?.name ?? '';
      const existing = engine.find(rt, ns(rt, obj), name);
      if (!existing) return engine.create(rt, ns(rt, obj), obj, { keepStatus: true }).object;
      const next = { ...obj, metadata: { ...obj.metadata, resourceVersion: existing.metadata.resourceVersion } };
      return engine.update(rt, ns(rt, obj), name, next, '', { keepStatus: true }).object;
    },
    patch: (apiVersion, kind, name, namespace, patch, contentType = MERGE_PATCH, subresource = '') => {
      const rt = type(apiVersion, kind);
      return engine.patch(rt, ns(rt, namespace), name, contentType, JSON.stringify(patch), subresource).object;
    },
    delete: (apiVersion, kind, name, namespace) => {
      const rt = type(apiVersion, kind);
      if (!engine.find(rt, ns(rt, namespace), name)) return false;
      engine.delete(rt, ns(rt, namespace), name);
      return true;
    },
    resourceVersion: () => String(engine.store.currentRevision()),
  };
};
