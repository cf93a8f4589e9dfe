import { describe, expect, it, vi } from 'vitest';
import type { ApiEvent, NavinBridge } from '../../preload/api';
import {
  ApiClient,
  ApiError,
  CSRF_HEADER,
  bridgeTransport,
  createClient,
  httpTransport,
  parseEvent,
  type EventSourceLike,
} from '../../renderer/src/api/client';

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  credentials: RequestCredentials | undefined;
}

/** A fake fetch answering from a queue of Responses (or throwing), recording each request. */
function fakeFetch(answers: Array<Response | Error | (() => Response)>) {
  const seen: Seen[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push({
      url: String(input),
      method: init?.method ?? 'GET',
      headers: { ...(init?.headers as Record<string, string>) },
      body: init?.body as string | undefined,
      credentials: init?.credentials,
    });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    if (next instanceof Error) throw next;
    return typeof next === 'function' ? next() : next;
  });
  return { fetch: fn as unknown as typeof fetch, seen };
}

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const session = {
  user: { id: 'u1', name: 'alice', role: 'admin', created_at: '2025-01-01T00:00:00Z' },
  csrf_token: 'tok-1',
  expires_at: '2099-01-01T00:00:00Z',
};

function httpClient(answers: Array<Response | Error>) {
  const f = fakeFetch(answers);
  const client = new ApiClient(httpTransport({ fetch: f.fetch, eventSource: null }));
  return { client, seen: f.seen };
}

describe('http transport', () => {
  it('keeps the CSRF token of the session and sends it on state-changing requests only', async () => {
    const { client, seen } = httpClient([
      json(200, session),
      json(200, { items: [] }),
      json(201, { id: 'c1' }),
      json(200, { id: 'c1' }),
      new Response(null, { status: 204 }),
      new Response(null, { status: 204 }),
      json(200, { items: [] }),
    ]);
    await client.login({ name: 'alice', password: 'pw' });
    expect(client.getCsrfToken()).toBe('tok-1');
    await client.listClusters();
    await client.createCluster({ name: 'edge-paris-1' });
    await client.updateCluster('c1', { description: 'x' });
    await client.deleteCluster('c1');
    await client.logout();
    expect(client.getCsrfToken()).toBeNull();
    await client.listClusters();

    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'POST /api/v1/session',
      'GET /api/v1/clusters',
      'POST /api/v1/clusters',
      'PATCH /api/v1/clusters/c1',
      'DELETE /api/v1/clusters/c1',
      'DELETE /api/v1/session',
      'GET /api/v1/clusters',
    ]);
    expect(seen[0]?.headers[CSRF_HEADER]).toBeUndefined(); // no token before sign-in
    expect(seen[1]?.headers[CSRF_HEADER]).toBeUndefined(); // GET
    expect(seen[2]?.headers[CSRF_HEADER]).toBe('tok-1');
    expect(seen[3]?.headers[CSRF_HEADER]).toBe('tok-1');
    expect(seen[4]?.headers[CSRF_HEADER]).toBe('tok-1');
    expect(seen[5]?.headers[CSRF_HEADER]).toBe('tok-1');
    expect(seen[6]?.headers[CSRF_HEADER]).toBeUndefined();
    expect(seen[2]?.headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(seen[2]?.body ?? 'null')).toEqual({ name: 'edge-paris-1' });
    expect(seen.every((s) => s.credentials === 'same-origin')).toBe(true);
  });

  it('keeps the token from GET /session, the ticket exchange and the setup', async () => {
    const { client, seen } = httpClient([
      json(200, { ...session, csrf_token: 'a' }),
      json(200, { ...session, csrf_token: 'b' }),
      json(200, { ...session, csrf_token: 'c' }),
    ]);
    await client.getSession();
    expect(client.getCsrfToken()).toBe('a');
    await client.exchangeTicket('T1');
    expect(client.getCsrfToken()).toBe('b');
    expect(seen[1]?.url).toBe('/api/v1/session/ticket');
    expect(JSON.parse(seen[1]?.body ?? '')).toEqual({ ticket: 'T1' });
    await client.setup({ token: 'S', name: 'root', password: 'pw' });
    expect(client.getCsrfToken()).toBe('c');
    expect(seen[2]?.url).toBe('/api/v1/setup');
  });

  it('turns an error body into a typed ApiError with code, status, message and field', async () => {
    const { client } = httpClient([json(400, { error: { code: 'invalid_field', message: 'bad name', field: 'name' } })]);
    const err = await client.createCluster({ name: 'Bad_Name' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'invalid_field', status: 400, message: 'bad name', field: 'name' });
  });

  it.each([
    [401, 'invalid_credentials'],
    [423, 'account_locked'],
    [409, 'name_taken'],
  ])('HTTP %i %s keeps its code', async (status, code) => {
    const { client } = httpClient([json(status, { error: { code, message: code } })]);
    await expect(client.login({ name: 'a', password: 'b' })).rejects.toMatchObject({ code, status });
  });

  it('maps a non-JSON error page to a code from its status', async () => {
    const { client } = httpClient([new Response('<html>Bad gateway</html>', { status: 502 })]);
    await expect(client.health()).rejects.toMatchObject({ code: 'internal', status: 502 });
  });

  it('reads YAML, PEM and HTML routes as text, and their errors as JSON', async () => {
    const { client, seen } = httpClient([
      new Response('kind: Namespace\n', { status: 200, headers: { 'Content-Type': 'application/yaml' } }),
      json(400, { error: { code: 'invalid_field', message: 'pinned by tag', field: 'image' } }),
    ]);
    expect(await client.importRbac('c 1', 'navin-platform')).toBe('kind: Namespace\n');
    expect(seen[0]?.url).toBe('/api/v1/clusters/c%201/kubernetes/import-rbac?namespace=navin-platform');
    await expect(client.agentManifests('c1', 'reg/agent:1')).rejects.toMatchObject({ code: 'invalid_field', field: 'image', status: 400 });
    expect(seen[1]?.url).toBe('/api/v1/clusters/c1/kubernetes/agent/manifests?image=reg%2Fagent%3A1');
  });

  it('rejects a 2xx answer that is not JSON', async () => {
    const { client } = httpClient([new Response('hello', { status: 200 })]);
    await expect(client.version()).rejects.toMatchObject({ code: 'bad_response', status: 0 });
  });

  it('resolves a 204 with undefined', async () => {
    const { client } = httpClient([new Response(null, { status: 204 })]);
    await expect(client.deleteCluster('x')).resolves.toBeUndefined();
  });

  it('reports a network failure as network_error with status 0', async () => {
    const { client } = httpClient([new TypeError('Failed to fetch')]);
    await expect(client.health()).rejects.toMatchObject({ code: 'network_error', status: 0 });
  });

  it('encodes cluster ids in paths', async () => {
    const { client, seen } = httpClient([json(200, { id: 'a/b' })]);
    await client.getCluster('a/b?c');
    expect(seen[0]?.url).toBe('/api/v1/clusters/a%2Fb%3Fc');
  });

  it('tells listeners about 401 unauthenticated, not about invalid_credentials', async () => {
    const { client } = httpClient([
      json(401, { error: { code: 'invalid_credentials', message: 'no' } }),
      json(401, { error: { code: 'unauthenticated', message: 'no session' } }),
    ]);
    const seen: string[] = [];
    client.onUnauthenticated((e) => seen.push(e.code));
    await client.login({ name: 'a', password: 'b' }).catch(() => undefined);
    expect(seen).toEqual([]);
    await client.listClusters().catch(() => undefined);
    expect(seen).toEqual(['unauthenticated']);
  });
});

class FakeEventSource implements EventSourceLike {
  static instances: FakeEventSource[] = [];
  readyState = 0;
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  close(): void {
    this.closed = true;
    this.readyState = 2;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  message(data: string): void {
    this.onmessage?.({ data });
  }
  fail(closed: boolean): void {
    this.readyState = closed ? 2 : 0;
    this.onerror?.({});
  }
}

describe('event stream over SSE', () => {
  it('opens one EventSource for all listeners, parses ApiEvents and reconnects after the browser gives up', async () => {
    vi.useFakeTimers();
    try {
      FakeEventSource.instances = [];
      const client = new ApiClient(
        httpTransport({ fetch: fakeFetch([]).fetch, eventSource: (url) => new FakeEventSource(url), reconnectDelayMs: 100 }),
      );
      const states: string[] = [];
      client.onLiveState((s) => states.push(s));
      const a: ApiEvent[] = [];
      const b: ApiEvent[] = [];
      const offA = client.onEvent((e) => a.push(e));
      const offB = client.onEvent((e) => b.push(e));
      expect(FakeEventSource.instances).toHaveLength(1);
      const es = FakeEventSource.instances[0]!;
      expect(es.url).toBe('/api/v1/events');
      es.open();
      expect(client.getLiveState()).toBe('open');
      es.message(JSON.stringify({ type: 'cluster.changed', data: { id: 'c1' } }));
      es.message('not json');
      es.message(JSON.stringify({ nope: true }));
      expect(a).toEqual([{ type: 'cluster.changed', data: { id: 'c1' } }]);
      expect(b).toEqual(a);

      es.fail(false); // the browser retries by itself
      expect(FakeEventSource.instances).toHaveLength(1);
      es.fail(true); // closed: we reopen after the delay
      expect(client.getLiveState()).toBe('reconnecting');
      vi.advanceTimersByTime(99);
      expect(FakeEventSource.instances).toHaveLength(1);
      vi.advanceTimersByTime(1);
      expect(FakeEventSource.instances).toHaveLength(2);

      offA();
      expect(FakeEventSource.instances[1]!.closed).toBe(false);
      offB();
      expect(FakeEventSource.instances[1]!.closed).toBe(true);
      expect(states.at(-1)).toBe('closed');
    } finally {
      vi.useRealTimers();
    }
  });

  it('parseEvent accepts an event of the contract map with its data, and nothing else', () => {
    expect(parseEvent('{"type":"cluster.changed","data":{"id":"c1"}}')).toEqual({ type: 'cluster.changed', data: { id: 'c1' } });
    expect(parseEvent('{"type":"x"}')).toBeNull();
    expect(parseEvent('{"type":"clusters.changed","data":{"id":"c1"}}')).toBeNull();
    expect(parseEvent('{"type":"cluster.changed"}')).toBeNull();
    expect(parseEvent('{"type":"host.changed","data":{"id":"h1"}}')).toBeNull();
    expect(parseEvent('')).toBeNull();
    expect(parseEvent('[1]')).toBeNull();
  });
});

describe('bridge transport', () => {
  function fakeBridge() {
    const listeners = new Set<(e: ApiEvent) => void>();
    const requests: unknown[] = [];
    const bridge: NavinBridge = {
      request: vi.fn(async (req) => {
        requests.push(req);
        if (req.path === '/api/v1/clusters' && req.method === 'POST') {
          return { status: 409, body: { error: { code: 'name_taken', message: 'taken', field: 'name' } } };
        }
        if (req.path === '/api/v1/health') throw new Error('ipc down');
        return { status: 200, body: { items: [] } };
      }) as NavinBridge['request'],
      onEvent: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    };
    return { bridge, listeners, requests };
  }

  it('is chosen when window.navin exists, carries the same requests and the same errors', async () => {
    const { bridge, requests } = fakeBridge();
    const client = createClient({ navin: bridge });
    expect(client.kind).toBe('bridge');
    await client.listClusters();
    expect(requests[0]).toEqual({ method: 'GET', path: '/api/v1/clusters' });
    await expect(client.createCluster({ name: 'edge' })).rejects.toMatchObject({ code: 'name_taken', status: 409, field: 'name' });
    expect(requests[1]).toEqual({ method: 'POST', path: '/api/v1/clusters', body: { name: 'edge' } });
    await expect(client.health()).rejects.toMatchObject({ code: 'bridge_error', status: 0 });
  });

  it('falls back to fetch without a bridge', () => {
    expect(createClient({}).kind).toBe('http');
    expect(createClient({ navin: { request: 'nope' } }).kind).toBe('http');
  });

  it('forwards pushed events and unsubscribes', () => {
    const { bridge, listeners } = fakeBridge();
    const client = new ApiClient(bridgeTransport(bridge));
    const got: string[] = [];
    const off = client.onEvent((e) => got.push(e.type));
    expect(client.getLiveState()).toBe('open');
    for (const l of listeners) l({ type: 'cluster.changed', data: { id: 'c1' } });
    expect(got).toEqual(['cluster.changed']);
    off();
    expect(listeners.size).toBe(0);
  });
});
