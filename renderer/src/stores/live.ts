// What the stores that follow pushed events share: their dependencies and methods, coalescing events into one
// reload, and reading their data loosely (events are `{type, data}` with data shaped by the manager: `{id}`,
// `{cluster_id}`, `{id, cluster_id}`).
import type { ApiEvent } from '../../../preload/api';
import type { ApiClient } from '../api/client';

export interface LiveDeps {
  client: ApiClient;
  /** Events arriving within this window cause one reload. */
  eventDebounceMs?: number;
}

/** The methods of a store that follows pushed events. */
export interface LiveStore {
  /** A pushed event from the manager. */
  handleEvent(event: ApiEvent): void;
  /** Subscribes to the client's events; returns the unsubscribe function. */
  startLive(): () => void;
  /** Forgets everything (sign-out). */
  reset(): void;
}

/** Runs `fn` once, `delayMs` after the first of a burst of triggers. */
export interface Coalescer {
  trigger(): void;
  cancel(): void;
}

export function coalescer(delayMs: number, fn: () => void): Coalescer {
  let timer: ReturnType<typeof setTimeout> | null = null;
  return {
    trigger() {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        fn();
      }, delayMs);
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

/** A string field of an event's data, or null. */
export function eventField(event: ApiEvent, key: 'id' | 'cluster_id'): string | null {
  const d = event.data;
  if (typeof d !== 'object' || d === null) return null;
  const v = (d as Record<string, unknown>)[key];
  return typeof v === 'string' && v.length > 0 ? v : null;
}

/** The cluster an event is about: `cluster_id`, or `id` for `cluster.*` events. */
export function eventCluster(event: ApiEvent): string | null {
  return eventField(event, 'cluster_id') ?? (event.type.startsWith('cluster.') ? eventField(event, 'id') : null);
}
