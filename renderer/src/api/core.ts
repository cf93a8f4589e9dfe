// The heart of the console's API client: a call of a route of the contract (preload/api.ts), typed by it —
// its path parameters, query, body and result — plus the CSRF token of the session, the listeners of error
// answers and the event stream. The calls of each resource (clusters.ts, session.ts, …) are built on `call`.
import type { ApiEvent, ApiRequest, ApiRoutes, HttpMethod, MfaChallenge, PathParams, RouteKey, SessionInfo } from '../../../preload/api';
import { ApiError } from './api-error';
import type { Accept, Transport } from './transport';
import type { LiveState } from './types';

type Spec<K extends RouteKey> = ApiRoutes[K];
type PatternOfKey<K extends string> = K extends `${string} ${infer P}` ? P : never;

/** What a call of route K takes: its path parameters, its query, its body, each only if the route has one. */
export type CallInput<K extends RouteKey> = (keyof PathParams<PatternOfKey<K>> extends never
  ? unknown
  : { params: PathParams<PatternOfKey<K>> }) &
  (Spec<K> extends { query: infer Q } ? { query?: Q } : unknown) &
  ('body' extends keyof Spec<K>
    ? undefined extends Spec<K>[keyof Spec<K> & 'body']
      ? { body?: Spec<K>[keyof Spec<K> & 'body'] }
      : { body: Spec<K>[keyof Spec<K> & 'body'] }
    : unknown);

type CallArgs<K extends RouteKey> = Record<never, never> extends CallInput<K> ? [input?: CallInput<K>] : [input: CallInput<K>];

/** The result of route K (the body of its 2xx answer). */
export type CallResult<K extends RouteKey> = Spec<K>['result'];

/** The routes that answer text (YAML, PEM, HTML). */
export type TextRouteKey = { [K in RouteKey]: CallResult<K> extends string ? K : never }[RouteKey];

/** `?a=1&b=x` from the defined, non-empty values (empty string when none). */
export function queryString(query: object): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query) as [string, string | number | undefined | null][]) {
    if (v === undefined || v === null || v === '') continue;
    params.set(k, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** The method and path (parameters encoded, query appended) of a call of route K. */
export function routeRequest<K extends RouteKey>(route: K, input: CallInput<K> | undefined): ApiRequest {
  const space = route.indexOf(' ');
  const method = route.slice(0, space) as HttpMethod;
  const given = (input ?? {}) as { params?: Record<string, string>; query?: object; body?: unknown };
  const path = route
    .slice(space + 1)
    .split('/')
    .map((part) => (part.startsWith(':') ? encodeURIComponent(given.params?.[part.slice(1)] ?? '') : part))
    .join('/');
  const req: ApiRequest = { method, path: path + queryString(given.query ?? {}) };
  if (given.body !== undefined) req.body = given.body;
  return req;
}

export class ApiCore {
  private csrfToken: string | null = null;
  private readonly unauthenticatedListeners = new Set<(error: ApiError) => void>();
  private readonly codeListeners = new Map<string, Set<(error: ApiError) => void>>();
  private readonly eventListeners = new Set<(event: ApiEvent) => void>();
  private readonly liveListeners = new Set<(state: LiveState) => void>();
  private stopEvents: (() => void) | null = null;
  private live: LiveState = 'closed';

  constructor(readonly transport: Transport) {}

  get kind(): Transport['kind'] {
    return this.transport.kind;
  }

  getCsrfToken(): string | null {
    return this.csrfToken;
  }

  setCsrfToken(token: string | null): void {
    this.csrfToken = token;
  }

  /** Called with the error of every 401 `unauthenticated` answer (the session store signs out on it). */
  onUnauthenticated(listener: (error: ApiError) => void): () => void {
    this.unauthenticatedListeners.add(listener);
    return () => this.unauthenticatedListeners.delete(listener);
  }

  /** Called with every error answer of this code (e.g. `mfa_enrollment_required`, whatever the call). */
  onErrorCode(code: string, listener: (error: ApiError) => void): () => void {
    let set = this.codeListeners.get(code);
    if (!set) {
      set = new Set();
      this.codeListeners.set(code, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /** A call of a route of the contract: resolves with its result, rejects with an ApiError. */
  call<K extends RouteKey>(route: K, ...[input]: CallArgs<K>): Promise<CallResult<K>> {
    const req = routeRequest(route, input);
    return this.request<CallResult<K>>(req.method, req.path, req.body);
  }

  /**
   * A call made ahead of need (before the session is known): its error answers are not told to the listeners,
   * so a 401 of a console not yet signed in neither signs it out nor disturbs a launch link.
   */
  callAhead<K extends RouteKey>(route: K, ...[input]: CallArgs<K>): Promise<CallResult<K>> {
    const req = routeRequest(route, input);
    return this.request<CallResult<K>>(req.method, req.path, req.body, 'json', false);
  }

  /** A call of a route answering text (YAML, PEM, HTML). */
  async callText<K extends TextRouteKey>(route: K, ...[input]: CallArgs<K>): Promise<string> {
    const req = routeRequest(route, input);
    return this.requestText(req.method, req.path, req.body);
  }

  /** The raw call: resolves with the body of a 2xx answer, rejects with an ApiError otherwise. */
  async request<T>(method: HttpMethod, path: string, body?: unknown, accept: Accept = 'json', tell = true): Promise<T> {
    const req: ApiRequest = body === undefined ? { method, path } : { method, path, body };
    const res = await this.transport.send<T>(req, this.csrfToken, accept);
    if (res.status >= 200 && res.status < 300) return res.body;
    const error = ApiError.fromResponse(res.status, res.body);
    if (!tell) throw error;
    if (error.status === 401 && error.code === 'unauthenticated') {
      for (const l of [...this.unauthenticatedListeners]) l(error);
    }
    for (const l of [...(this.codeListeners.get(error.code) ?? [])]) l(error);
    throw error;
  }

  /** A route answering text (YAML, PEM, HTML): resolves with the text, rejects with an ApiError otherwise. */
  async requestText(method: HttpMethod, path: string, body?: unknown): Promise<string> {
    const text = await this.request<unknown>(method, path, body, 'text');
    if (typeof text !== 'string') throw ApiError.client('bad_response', `Response to ${method} ${path} is not text`);
    return text;
  }

  /** Subscribes to pushed events; the stream is opened for the first listener and closed after the last. */
  onEvent(listener: (event: ApiEvent) => void): () => void {
    this.eventListeners.add(listener);
    if (!this.stopEvents) {
      this.stopEvents = this.transport.subscribe(
        (event) => {
          for (const l of [...this.eventListeners]) l(event);
        },
        (state) => this.setLive(state),
      );
    }
    return () => {
      if (!this.eventListeners.delete(listener)) return;
      if (this.eventListeners.size === 0 && this.stopEvents) {
        const stop = this.stopEvents;
        this.stopEvents = null;
        stop();
      }
    };
  }

  getLiveState(): LiveState {
    return this.live;
  }

  onLiveState(listener: (state: LiveState) => void): () => void {
    this.liveListeners.add(listener);
    return () => this.liveListeners.delete(listener);
  }

  private setLive(state: LiveState): void {
    this.live = state;
    for (const l of [...this.liveListeners]) l(state);
  }

  protected keepSessionOrChallenge(answer: SessionInfo | MfaChallenge): SessionInfo | MfaChallenge {
    return isMfaChallenge(answer) ? answer : this.keepSession(answer);
  }

  protected keepSession(info: SessionInfo): SessionInfo {
    if (info && typeof info.csrf_token === 'string') this.csrfToken = info.csrf_token;
    return info;
  }

  protected forgetSession(): void {
    this.csrfToken = null;
  }
}

/** The sign-in answered with a second-factor challenge instead of a session. */
export function isMfaChallenge(x: unknown): x is MfaChallenge {
  return (
    typeof x === 'object' &&
    x !== null &&
    (x as { mfa_required?: unknown }).mfa_required === true &&
    typeof (x as { mfa_token?: unknown }).mfa_token === 'string'
  );
}

/** The classes the calls of each resource extend (a TypeScript mixin takes exactly this constructor type). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the mixin pattern requires `any[]` here
export type ApiCoreClass = new (...args: any[]) => ApiCore;
