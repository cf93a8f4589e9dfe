// Watch streams: newline-delimited JSON events, resumable from a resourceVersion, bookmarks, timeouts, 410 Expired.
import type { ServerResponse } from 'node:http';
import type { Engine } from './engine.js';
import { parseBool } from './router.js';
import { fieldSelector, labelSelector } from './selectors.js';
import * as errors from './status.js';
import type { StoreEvent } from './store.js';
import type { ResourceType, StoredObject } from './types.js';
import { toTable } from './table.js';
import { groupVersion, storageKey } from './types.js';

export interface WatchSettings {
  /** How often a watch with allowWatchBookmarks=true gets a BOOKMARK (the real server: about a minute). */
  bookmarkIntervalMs: number;
  /** Every open watch, so stop() and dropConnections() can end them. */
  open: Set<ServerResponse>;
}

/** Validates the query and starts streaming; throws a StatusError (sent as HTTP error) before the stream starts. */
export const serveWatch = (
  engine: Engine,
  rt: ResourceType,
  namespace: string | undefined,
  query: URLSearchParams,
  res: ServerResponse,
  settings: WatchSettings,
  table?: { includeObject: string },
): void => {
  const byLabel = labelSelector(query.get('labelSelector'));
  const byField = fieldSelector(query.get('fieldSelector'), rt.fieldLabels);
  const rvParam = query.get('resourceVersion') ?? '';
  const from = rvParam === '' ? 0 : Number(rvParam);
  if (!Number.isInteger(from) || from < 0) {
    throw errors.invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', [
      { type: 'Invalid', field: 'resourceVersion', value: rvParam },
    ]);
  }
  const timeoutSeconds = Number(query.get('timeoutSeconds') ?? '0');
  const bookmarks = parseBool(query.get('allowWatchBookmarks'));
  const initial = rvParam === '' || rvParam === '0' || parseBool(query.get('sendInitialEvents'));
  const key = storageKey(rt);
  const ns = rt.namespaced ? namespace : undefined;
  const matches = (o: StoredObject): boolean => (ns === undefined || o.metadata.namespace === ns) && byLabel(o) && byField(o);

  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
  res.flushHeaders();
  settings.open.add(res);
  let headersSent = false;
  /** With Accept …;as=Table every object but an ERROR's Status goes as a one-row Table, the first with its columns. */
  const asTable = (type: string, object: StoredObject): object => {
    if (!table) return object;
    const rows = type === 'BOOKMARK' ? [] : [object];
    const t = toTable(rt, rows, { resourceVersion: object.metadata.resourceVersion }, table.includeObject, headersSent);
    headersSent = true;
    return type === 'BOOKMARK' ? { ...t, metadata: object.metadata } : t;
  };
  const send = (type: string, object: unknown): void => {
    if (res.destroyed || res.writableEnded) return;
    const out = type === 'ERROR' ? object : asTable(type, object as StoredObject);
    res.write(`${JSON.stringify({ type, object: out })}\n`);
  };
  const bookmark = (annotations?: Record<string, string>): void =>
    send('BOOKMARK', {
      kind: rt.kind,
      apiVersion: groupVersion(rt.group, rt.version),
      metadata: { resourceVersion: String(engine.store.currentRevision()), ...(annotations ? { annotations } : {}) },
    });

  /** Selector transitions as the watch cache reports them: into the selection ADDED, out of it DELETED. */
  const deliver = (e: StoreEvent): void => {
    if (e.key !== key) return;
    const cur = matches(e.object);
    const prev = e.prev ? matches(e.prev) : false;
    const obj = engine.present(rt, e.object);
    if (e.type === 'ADDED' && cur) send('ADDED', obj);
    else if (e.type === 'DELETED' && (cur || prev)) send('DELETED', obj);
    else if (e.type === 'MODIFIED') {
      if (cur && prev) send('MODIFIED', obj);
      else if (cur) send('ADDED', obj);
      else if (prev && e.prev)
        send('DELETED', { ...engine.present(rt, e.prev), metadata: { ...e.prev.metadata, resourceVersion: String(e.rv) } });
    }
  };

  if (initial) {
    for (const o of engine.store.list(key, ns)) if (matches(o)) send('ADDED', engine.present(rt, o));
    if (parseBool(query.get('sendInitialEvents')) && bookmarks) bookmark({ 'k8s.io/initial-events-end': 'true' });
  } else {
    const events = engine.store.eventsSince(from);
    if (events === 'expired') {
      send('ERROR', errors.expired(`too old resource version: ${from} (${engine.store.oldestResumable() + 1})`).status);
      settings.open.delete(res);
      res.end();
      return;
    }
    for (const e of events) deliver(e);
  }
  const unsubscribe = engine.store.subscribe(deliver);
  const timers: NodeJS.Timeout[] = [];
  if (bookmarks) timers.push(setInterval(() => bookmark(), settings.bookmarkIntervalMs));
  if (timeoutSeconds > 0) timers.push(setTimeout(() => res.end(), timeoutSeconds * 1000));
  res.on('close', () => {
    unsubscribe();
    timers.forEach((t) => clearTimeout(t));
    settings.open.delete(res);
  });
};
