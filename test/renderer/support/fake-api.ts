// An in-memory console API behind the client's Transport interface, for store tests: routes are handlers on
// "METHOD /path" (or "METHOD /path?query"), every call is recorded with the CSRF token the client sent.
import type { ApiEvent, ApiRequest, ApiResponse, Cluster, SessionInfo, User } from '../../../preload/api';
import { ApiClient, type Transport } from '../../../renderer/src/api/client';
import type { LiveState } from '../../../renderer/src/api/types';

export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
  csrf: string | null;
}

export type Handler = (req: ApiRequest) => ApiResponse | Promise<ApiResponse>;

export class FakeApi implements Transport {
  readonly kind = 'http' as const;
  readonly calls: RecordedCall[] = [];
  private readonly routes = new Map<string, Handler>();
  private listeners = new Set<(e: ApiEvent) => void>();
  subscriptions = 0;

  on(route: string, handler: Handler | ApiResponse): this {
    this.routes.set(route, typeof handler === 'function' ? handler : () => handler);
    return this;
  }

  async send<T>(req: ApiRequest, csrf: string | null): Promise<ApiResponse<T>> {
    this.calls.push({ method: req.method, path: req.path, body: req.body, csrf });
    // A route given with its query answers that query only; one given without answers any query.
    const handler = this.routes.get(`${req.method} ${req.path}`) ?? this.routes.get(`${req.method} ${req.path.split('?')[0]}`);
    if (!handler) return { status: 404, body: { error: { code: 'not_found', message: `no route ${req.method} ${req.path}` } } as T };
    return (await handler(req)) as ApiResponse<T>;
  }

  subscribe(listener: (e: ApiEvent) => void, onState: (s: LiveState) => void): () => void {
    this.subscriptions++;
    this.listeners.add(listener);
    onState('open');
    return () => {
      this.listeners.delete(listener);
      onState('closed');
    };
  }

  emit(event: ApiEvent): void {
    for (const l of this.listeners) l(event);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  callsTo(method: string, path: string): RecordedCall[] {
    return this.calls.filter((c) => c.method === method && c.path === path);
  }
}

export function makeClient(api: FakeApi): ApiClient {
  return new ApiClient(api);
}

export const apiError = (status: number, code: string, message = code, field?: string): ApiResponse => ({
  status,
  body: { error: field ? { code, message, field } : { code, message } },
});

export const alice: User = { id: 'u-1', name: 'alice', role: 'admin', created_at: '2025-01-01T00:00:00Z' };

export function sessionOf(user: User = alice, csrf = 'csrf-1'): SessionInfo {
  return { user, csrf_token: csrf, expires_at: '2099-01-01T00:00:00Z' };
}

let seq = 0;
export function cluster(name: string, patch: Partial<Cluster> = {}): Cluster {
  seq++;
  return {
    id: patch.id ?? `c-${String(seq).padStart(5, '0')}`,
    name,
    kind: 'kubernetes',
    description: '',
    tenant: 'default',
    state: 'pending',
    created_at: new Date(Date.UTC(2025, 0, 1) + seq * 60_000).toISOString(),
    updated_at: new Date(Date.UTC(2025, 0, 1) + seq * 60_000).toISOString(),
    ...patch,
  };
}

export const flush = (): Promise<void> => new Promise((r) => setTimeout(r, 0));
