// What the stores that follow pushed events share: their dependencies and methods, coalescing events into one
// reload, and the two fields most listeners read (events are the contract's union: `data` is known by `type`).
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

/** An event's `id` or `cluster_id`, or null for an event without it. */
export function eventField(event: ApiEvent, key: 'id' | 'cluster_id'): string | null {
  const d: Partial<Record<'id' | 'cluster_id', string | null>> = event.data;
  return d[key] || null;
}

/** The cluster an event is about: `cluster_id`, or `id` for `cluster.changed`. */
export function eventCluster(event: ApiEvent): string | null {
  return event.type === 'cluster.changed' ? event.data.id : eventField(event, 'cluster_id');
}
