// How requests travel, behind one interface:
// - the desktop app: `window.navin` (preload bridge, IPC), no cookie and no CSRF header;
// - a browser against `navin-manager serve`: fetch on the same origin, cookie session, `X-CSRF-Token` on every
//   state-changing request, and Server-Sent Events for pushed events.
import type { ApiEvent, ApiRequest, ApiResponse, HttpMethod, NavinBridge } from '../../../preload/api';
import { parseCoreEvent } from '../../../preload/events';
import { ApiError, toApiError } from './api-error';
import type { LiveState } from './types';

export const API_PREFIX = '/api/v1';
export const CSRF_HEADER = 'X-CSRF-Token';

/** What a call expects back: JSON (every route but a few) or text. */
export type Accept = 'json' | 'text';

/** How requests travel. `send` resolves with any HTTP status; it rejects only when no response came back. */
export interface Transport {
  readonly kind: 'bridge' | 'http';
  /** `accept: 'text'`: a 2xx body is returned as text (YAML, PEM, HTML routes). */
  send<T>(req: ApiRequest, csrfToken: string | null, accept?: Accept): Promise<ApiResponse<T>>;
  subscribe(listener: (event: ApiEvent) => void, onState: (state: LiveState) => void): () => void;
}

export function bridgeTransport(bridge: NavinBridge): Transport {
  return {
    kind: 'bridge',
    async send<T>(req: ApiRequest): Promise<ApiResponse<T>> {
      try {
        return await bridge.request<T>(req);
      } catch (e) {
        throw toApiError(e);
      }
    },
    subscribe(listener, onState) {
      const off = bridge.onEvent(listener);
      onState('open');
      return () => {
        off();
        onState('closed');
      };
    },
  };
}

/** The part of EventSource the client uses (lets tests pass a fake). */
export interface EventSourceLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  close(): void;
}
export type EventSourceFactory = (url: string) => EventSourceLike;

export interface HttpTransportOptions {
  /** Origin prefix; '' (same origin) in the browser. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Opens the event stream; defaults to the browser's EventSource, with credentials. */
  eventSource?: EventSourceFactory | null;
  /** First reconnection delay of the event stream after the browser gave up; doubles up to 30 s. */
  reconnectDelayMs?: number;
}

const EVENT_SOURCE_CLOSED = 2;

export function httpTransport(options: HttpTransportOptions = {}): Transport {
  const baseUrl = options.baseUrl ?? '';
  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const openEventSource: EventSourceFactory | null =
    options.eventSource !== undefined
      ? options.eventSource
      : typeof globalThis.EventSource === 'function'
        ? (url) => new globalThis.EventSource(url, { withCredentials: true }) as unknown as EventSourceLike
        : null;
  const firstDelay = options.reconnectDelayMs ?? 1000;

  return {
    kind: 'http',
    async send<T>(req: ApiRequest, csrfToken: string | null, accept: Accept = 'json'): Promise<ApiResponse<T>> {
      const headers: Record<string, string> = { Accept: accept === 'text' ? '*/*' : 'application/json' };
      let body: string | undefined;
      if (req.body !== undefined) {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(req.body);
      }
      if (isStateChanging(req.method) && csrfToken) headers[CSRF_HEADER] = csrfToken;
      let res: Response;
      try {
        res = await fetchImpl(baseUrl + req.path, {
          method: req.method,
          headers,
          body,
          credentials: 'same-origin',
          cache: 'no-store',
          redirect: 'error',
        });
      } catch (e) {
        throw ApiError.client('network_error', e instanceof Error ? e.message : String(e));
      }
      let text: string;
      try {
        text = await res.text();
      } catch (e) {
        throw ApiError.client('network_error', e instanceof Error ? e.message : String(e));
      }
      let parsed: unknown = undefined;
      // YAML, PEM and HTML answers (import RBAC, manifests, manager.pem, report HTML) come back as text.
      if (accept === 'text' && res.status < 400) {
        parsed = text;
      } else if (text.length > 0) {
        try {
          parsed = JSON.parse(text);
        } catch {
          if (res.status < 400) throw ApiError.client('bad_response', `Response to ${req.method} ${req.path} is not JSON`);
          parsed = text;
        }
      }
      return { status: res.status, body: parsed as T };
    },
    subscribe(listener, onState) {
      if (!openEventSource) {
        onState('closed');
        return () => undefined;
      }
      let source: EventSourceLike | null = null;
      let timer: ReturnType<typeof setTimeout> | null = null;
      let stopped = false;
      let attempt = 0;
      const open = (): void => {
        timer = null;
        if (stopped) return;
        onState(attempt === 0 ? 'connecting' : 'reconnecting');
        const es = openEventSource(`${baseUrl}${API_PREFIX}/events`);
        source = es;
        es.onopen = () => {
          attempt = 0;
          onState('open');
        };
        es.onmessage = (m) => {
          const event = parseEvent(m.data);
          if (event) listener(event);
        };
        es.onerror = () => {
          if (stopped) return;
          // The browser retries by itself unless it closed the stream (e.g. 401 or a non-SSE response).
          if (es.readyState !== EVENT_SOURCE_CLOSED) {
            onState('reconnecting');
            return;
          }
          es.close();
          const delay = Math.min(30_000, firstDelay * 2 ** attempt);
          attempt += 1;
          onState('reconnecting');
          timer = setTimeout(open, delay);
        };
      };
      open();
      return () => {
        stopped = true;
        if (timer) clearTimeout(timer);
        source?.close();
        onState('closed');
      };
    },
  };
}

function isStateChanging(method: HttpMethod): boolean {
  return method !== 'GET';
}

/**
 * An SSE `data:` payload → ApiEvent, or null when it is not one: comments and keep-alives, and anything that is
 * not an event of the contract's map with its data's shape (the stores read `data` as typed).
 */
export function parseEvent(data: string): ApiEvent | null {
  try {
    return parseCoreEvent(JSON.parse(data));
  } catch {
    return null;
  }
}

/** The bridge of the desktop app, when the renderer runs in the Electron window. */
export function findBridge(scope: unknown = globalThis): NavinBridge | null {
  const candidate = (scope as { navin?: unknown } | undefined)?.navin;
  if (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof (candidate as NavinBridge).request === 'function' &&
    typeof (candidate as NavinBridge).onEvent === 'function'
  ) {
    return candidate as NavinBridge;
  }
  return null;
}
