// The console API: one table of typed handlers, transport-neutral. The Electron IPC bridge and the HTTPS
// listener both call `handle` with the same request and get the same answer.
import type { PublicUser, NewSession } from '../core/accounts/accounts';
import { roleAtLeast } from '../core/accounts/accounts';
import type { Role } from '../core/store/accounts-tables';
import type { Manager } from '../core/manager';
import { ApiError, errorBody, toApiError } from './api-error';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Credentials as the transport found them; the router decides what they are worth. */
export interface Credentials {
  session?: string;
  csrf?: string;
  bearer?: string;
  /** IPC from our own window carries no ambient credential a third-party page could forge: no CSRF check. */
  trustedChannel?: boolean;
}

export interface ApiCall {
  method: Method;
  path: string;
  query: URLSearchParams;
  body: unknown;
  credentials: Credentials;
}

export interface ApiResult {
  status: number;
  body: unknown;
  /** For a text body (YAML, PEM, HTML): its media type. JSON bodies need none. */
  contentType?: string;
  /** A session opened (login) or closed (null) by this call, for the transport to set or clear its cookie. */
  session?: NewSession | null;
}

export interface Principal {
  user: PublicUser;
  actor: string;
  via: 'session' | 'token';
}

export interface Context {
  manager: Manager;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  credentials: Credentials;
  principal: Principal | undefined;
}

export interface AuthedContext extends Context {
  principal: Principal;
}

type Handler<C> = (ctx: C) => ApiResult | Promise<ApiResult>;

interface Route {
  method: Method;
  pattern: string;
  parts: string[];
  access: 'public' | Role;
  handler: Handler<Context>;
}

export class Router {
  private readonly routes: Route[] = [];

  /** A route anyone may call (health, version, login). */
  public(method: Method, pattern: string, handler: Handler<Context>): this {
    this.routes.push({ method, pattern, parts: split(pattern), access: 'public', handler });
    return this;
  }

  /** A route that needs a user of at least `role`. */
  authed(method: Method, pattern: string, role: Role, handler: Handler<AuthedContext>): this {
    this.routes.push({ method, pattern, parts: split(pattern), access: role, handler: handler as Handler<Context> });
    return this;
  }

  /** The route table (method, pattern, access), for the tests that walk every route. */
  list(): { method: Method; pattern: string; access: 'public' | Role }[] {
    return this.routes.map(({ method, pattern, access }) => ({ method, pattern, access }));
  }

  async handle(manager: Manager, call: ApiCall): Promise<ApiResult> {
    try {
      const { route, params } = this.match(call.method, call.path);
      const principal = authenticate(manager, call.credentials);
      if (route.access !== 'public') {
        if (!principal) throw new ApiError(401, 'unauthenticated', 'log in first (or send an API token as Authorization: Bearer)');
        if (call.method !== 'GET' && principal.via === 'session' && !call.credentials.trustedChannel) {
          const expected = manager.accounts.session(call.credentials.session!)?.csrf_token;
          if (!call.credentials.csrf || call.credentials.csrf !== expected)
            throw new ApiError(403, 'csrf_missing', 'this request lacks the X-CSRF-Token header of your session; reload the console');
        }
        if (!ENROLMENT_ROUTES.has(`${route.method} ${route.pattern}`) && manager.accounts.mfaPending(principal.user.id)) {
          throw new ApiError(
            403,
            'mfa_enrollment_required',
            'your role requires a second factor: enrol an authenticator app first (session, MFA enrolment)',
          );
        }
        if (!roleAtLeast(principal.user.role, route.access))
          throw new ApiError(403, 'forbidden', `this needs the ${route.access} role; you are ${principal.user.role}`);
      }
      return await route.handler({ manager, params, query: call.query, body: call.body, credentials: call.credentials, principal });
    } catch (error) {
      const e = toApiError(error);
      if (e.code === 'internal')
        console.error(
          JSON.stringify({
            level: 'error',
            event: 'api.error',
            method: call.method,
            path: call.path,
            error: String((error as Error)?.stack ?? error),
          }),
        );
      return { status: e.status, body: errorBody(e) };
    }
  }

  private match(method: Method, path: string): { route: Route; params: Record<string, string> } {
    const parts = split(path);
    let pathMatched = false;
    for (const route of this.routes) {
      const params = matchParts(route.parts, parts);
      if (!params) continue;
      pathMatched = true;
      if (route.method === method) return { route, params };
    }
    if (pathMatched) throw new ApiError(405, 'method_not_allowed', `${method} is not allowed on ${path}`);
    throw new ApiError(404, 'not_found', `no API route ${path}`);
  }
}

function authenticate(manager: Manager, c: Credentials): Principal | undefined {
  if (c.bearer) {
    const user = manager.accounts.apiTokenUser(c.bearer);
    if (!user) throw new ApiError(401, 'unauthenticated', 'this API token is not valid');
    return { user, actor: user.name, via: 'token' };
  }
  if (c.session) {
    const s = manager.accounts.session(c.session);
    if (s) return { user: s.user, actor: s.user.name, via: 'session' };
  }
  return undefined;
}

/**
 * What an account whose role requires a second factor it lacks may still call (with the public routes: session,
 * health, version): enrolling, so that such an account can log in and get one at all.
 */
const ENROLMENT_ROUTES: ReadonlySet<string> = new Set(['POST /api/v1/session/mfa/enrolment', 'POST /api/v1/session/mfa/enrolment/confirm']);

const split = (p: string): string[] => p.split('/').filter(Boolean);

function matchParts(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const v = parts[i]!;
    if (p.startsWith(':')) {
      try {
        params[p.slice(1)] = decodeURIComponent(v);
      } catch {
        return undefined;
      }
    } else if (p !== v) return undefined;
  }
  return params;
}

export const ok = (body: unknown, status = 200): ApiResult => ({ status, body });
