// The object store: like etcd behind the API server, one global revision, a bounded event history for watches.
import type { StoredObject } from './types.js';
import { clone } from './types.js';

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  rv: number;
  type: EventType;
  /** storageKey() of the object's resource: `group/plural`. */
  key: string;
  object: StoredObject;
  /** The object before a MODIFIED or DELETED event. */
  prev?: StoredObject;
}

const objectKey = (namespace: string | undefined, name: string): string => `${namespace ?? ''}/${name}`;

export class ObjectStore {
  private readonly data = new Map<string, Map<string, StoredObject>>();
  private revision: number;
  private history: StoreEvent[] = [];
  /** Every event at or below this revision has left the history. */
  private droppedThrough = 0;
  private readonly listeners = new Set<(e: StoreEvent) => void>();

  constructor(
    private readonly historyLimit = 1000,
    startRevision = 0,
  ) {
    this.revision = startRevision;
    this.droppedThrough = startRevision;
  }

  currentRevision(): number {
    return this.revision;
  }

  /** The oldest revision a watch may resume from without 410 Gone. */
  oldestResumable(): number {
    return this.droppedThrough;
  }

  get(key: string, namespace: string | undefined, name: string): StoredObject | undefined {
    const o = this.data.get(key)?.get(objectKey(namespace, name));
    return o && clone(o);
  }

  /** Sorted by namespace then name, as etcd returns keys; all namespaces when `namespace` is undefined. */
  list(key: string, namespace?: string): StoredObject[] {
    const bucket = this.data.get(key);
    if (!bucket) return [];
    return [...bucket.entries()]
      .filter(([, o]) => namespace === undefined || (o.metadata.namespace ?? '') === namespace)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, o]) => clone(o));
  }

  keys(): string[] {
    return [...this.data.keys()];
  }

  /** Writes (creates or replaces) the object at a new revision, which it returns set in metadata.resourceVersion. */
  put(key: string, object: StoredObject): StoredObject {
    const k = objectKey(object.metadata.namespace, object.metadata.name);
    let bucket = this.data.get(key);
    if (!bucket) this.data.set(key, (bucket = new Map()));
    const prev = bucket.get(k);
    const stored = clone(object);
    stored.metadata.resourceVersion = String(++this.revision);
    bucket.set(k, stored);
    this.emit({ rv: this.revision, type: prev ? 'MODIFIED' : 'ADDED', key, object: stored, ...(prev ? { prev } : {}) });
    return clone(stored);
  }

  /** Removes the object; the DELETED event carries it at the deletion's revision, as etcd watches do. */
  remove(key: string, namespace: string | undefined, name: string): StoredObject | undefined {
    const bucket = this.data.get(key);
    const k = objectKey(namespace, name);
    const prev = bucket?.get(k);
    if (!bucket || !prev) return undefined;
    bucket.delete(k);
    const gone = clone(prev);
    gone.metadata.resourceVersion = String(++this.revision);
    this.emit({ rv: this.revision, type: 'DELETED', key, object: gone, prev });
    return clone(gone);
  }

  /** Events after `rv`, or 'expired' when some of them already left the history window. */
  eventsSince(rv: number): StoreEvent[] | 'expired' {
    if (rv < this.droppedThrough) return 'expired';
    return this.history.filter((e) => e.rv > rv);
  }

  subscribe(listener: (e: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: StoreEvent): void {
    this.history.push(e);
    while (this.history.length > this.historyLimit) {
      const dropped = this.history.shift();
      if (dropped) this.droppedThrough = dropped.rv;
    }
    for (const l of [...this.listeners]) l(e);
  }
}
