// The console API: one table of typed handlers, transport-neutral. The Electron IPC bridge and the HTTPS
// listener both call `handle` with the same request and get the same answer. Every route is declared in the
// contract (./contract): a handler gets the path parameters of its pattern and must answer its result type.
// Routes are matched by the route table the agent gateway shares (core/http/route-table.ts).
import type { PublicUser, NewSession } from '../accounts/accounts';
import { roleAtLeast } from '../accounts/accounts';
import type { Role } from '../accounts/accounts-tables';
import type { Manager } from '../manager';
import { ApiError, errorBody, toApiError } from './api-error';
import { CoreError } from '../errors';
import type { z } from 'zod';
import { ROUTE_SCHEMAS, type PatternOf, type RouteOf, type RouteSchemaTable } from '../../contract';
import type { Method, PathParams, ResultOf, RouteSchemas, RouteSpec } from '../../contract/route';
import { parseInput } from './parse-input';
import { RouteTable } from './route-table';

export type { Method };

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

/**
 * A handler's answer: the route's result type, so a wrong or missing field does not compile, and for a route
 * declared schema first the status its contract gives (which its OpenAPI document shows), so a handler answering
 * 201 where the contract says 200 does not compile either.
 */
export interface Reply<T, N extends number = number> extends ApiResult {
  body: T;
  status: N;
}

export interface Principal {
  user: PublicUser;
  actor: string;
  via: 'session' | 'token';
}

/**
 * A handler gets its body, query and parameters as its route's schemas parse them; the parameters of a route
 * without a params schema as decoded strings, and no query or body where its contract declares none.
 */
type ParamsIn<S extends RouteSpec, P extends string> = S['schemas'] extends { params: infer T extends z.ZodType }
  ? z.output<T>
  : PathParams<P>;
type QueryIn<S extends RouteSpec> = S['schemas'] extends { query: infer T extends z.ZodType } ? z.output<T> : undefined;
type BodyIn<S extends RouteSpec> = S['schemas'] extends { body: infer T extends z.ZodType } ? z.output<T> : undefined;

export interface Context<S extends RouteSpec = RouteSpec, P extends string = string> {
  manager: Manager;
  params: ParamsIn<S, P>;
  query: QueryIn<S>;
  body: BodyIn<S>;
  credentials: Credentials;
  principal: Principal | undefined;
}

export interface AuthedContext<S extends RouteSpec = RouteSpec, P extends string = string> extends Context<S, P> {
  principal: Principal;
}

/** The status a route's contract gives its answer: its `status`, 204 for a `z.null()` result, else 200. */
type DeclaredStatus<S extends RouteSpec> = S['schemas'] extends { status: infer N extends number }
  ? N
  : S['schemas']['result'] extends z.ZodNull
    ? 204
    : 200;

type Handler<C, R, N extends number = number> = (ctx: C) => Reply<R, N> | Promise<Reply<R, N>>;

/** A context as the table holds it, its input's types erased: each handler was typed by its route when added. */
interface AnyContext {
  manager: Manager;
  params: unknown;
  query: unknown;
  body: unknown;
  credentials: Credentials;
  principal: Principal | undefined;
}

interface Route {
  method: Method;
  pattern: string;
  access: 'public' | Role;
  schemas: RouteSchemas;
  handler: Handler<AnyContext, unknown>;
}

/** The console's answers to a path no route has and to a method its routes do not take. */
const MISSES = {
  notFound: (_method: string, path: string) => `no API route ${path}`,
  wrongMethod: (method: string, path: string) => `${method} is not allowed on ${path}`,
};

export class Router {
  private readonly routes = new RouteTable<Route>(MISSES);

  /** `schemas`: every route's schemas, by which its input is parsed before its handler runs. */
  constructor(private readonly schemas: RouteSchemaTable = ROUTE_SCHEMAS) {}

  /** A route anyone may call (health, version, login). */
  public<M extends Method, P extends PatternOf<M>>(
    method: M,
    pattern: P,
    handler: Handler<Context<RouteOf<M, P>, P>, ResultOf<RouteOf<M, P>>, DeclaredStatus<RouteOf<M, P>>>,
  ): this {
    return this.add(method, pattern, 'public', handler as unknown as Handler<AnyContext, unknown>);
  }

  /** A route that needs a user of at least `role`. */
  authed<M extends Method, P extends PatternOf<M>>(
    method: M,
    pattern: P,
    role: Role,
    handler: Handler<AuthedContext<RouteOf<M, P>, P>, ResultOf<RouteOf<M, P>>, DeclaredStatus<RouteOf<M, P>>>,
  ): this {
    return this.add(method, pattern, role, handler as unknown as Handler<AnyContext, unknown>);
  }

  private add(method: Method, pattern: string, access: 'public' | Role, handler: Handler<AnyContext, unknown>): this {
    const schemas = (this.schemas as Readonly<Record<string, RouteSchemas | undefined>>)[`${method} ${pattern}`];
    // The handler's types come from the same declaration: a route outside the table would run on input no one checked.
    if (!schemas)
      throw new CoreError('internal', `${method} ${pattern} is declared in no contract file (main/contract) of this router's table`);
    this.routes.add({ method, pattern, access, schemas, handler });
    return this;
  }

  /** The route table (method, pattern, access), for the tests that walk every route. */
  list(): { method: Method; pattern: string; access: 'public' | Role }[] {
    return this.routes.list().map(({ method, pattern, access }) => ({ method, pattern, access }));
  }

  async handle(manager: Manager, call: ApiCall): Promise<ApiResult> {
    try {
      const { route, params } = this.routes.match(call.method, call.path);
      const principal = authenticate(manager, call.credentials);
      if (route.access !== 'public') {
        if (!principal) throw new ApiError('unauthenticated', 'log in first (or send an API token as Authorization: Bearer)');
        if (call.method !== 'GET' && principal.via === 'session' && !call.credentials.trustedChannel) {
          const expected = manager.accounts.session(call.credentials.session!)?.csrf_token;
          if (!call.credentials.csrf || call.credentials.csrf !== expected)
            throw new ApiError('csrf_missing', 'this request lacks the X-CSRF-Token header of your session; reload the console');
        }
        if (!ENROLMENT_ROUTES.has(`${route.method} ${route.pattern}`) && manager.accounts.mfaPending(principal.user.id)) {
          throw new ApiError(
            'mfa_enrollment_required',
            'your role requires a second factor: enrol an authenticator app first (session, MFA enrolment)',
          );
        }
        if (!roleAtLeast(principal.user.role, route.access))
          throw new ApiError('forbidden', `this needs the ${route.access} role; you are ${principal.user.role}`);
        // An approval is spent by the person who asked for it, signed in with their own factor: a token (perhaps
        // made for someone else) never spends one, whatever the route.
        if (principal.via === 'token' && carriesApproval(call))
          throw new ApiError('approval_needs_session', 'an approval is used from a console session, not with an API token');
      }
      // Input is parsed only once the caller may use the route: an anonymous caller learns nothing of its rules.
      const input = parseInput(route.schemas, params, call.query, call.body);
      return await route.handler({ manager, ...input, credentials: call.credentials, principal });
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
}

function authenticate(manager: Manager, c: Credentials): Principal | undefined {
  if (c.bearer) {
    const user = manager.accounts.apiTokenUser(c.bearer);
    if (!user) throw new ApiError('unauthenticated', 'this API token is not valid');
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

function carriesApproval(call: ApiCall): boolean {
  if (call.query.get('approval_id')) return true;
  const b = call.body;
  if (typeof b !== 'object' || b === null || Array.isArray(b) || !Object.hasOwn(b, 'approval_id')) return false;
  const id = (b as { approval_id?: unknown }).approval_id;
  return id !== undefined && id !== null && id !== '';
}

/**
 * A JSON answer of the route's result type (inferred from the route, never from the value given), and of the
 * status given (never inferred from the route: it must be the one the contract declares).
 */
export const ok = <T, N extends 200 | 201 | 202 = 200>(body: NoInfer<T>, status?: N): Reply<T, NoInfer<N>> => ({
  status: (status ?? 200) as N,
  body,
});

/** A text answer (YAML, PEM, HTML) of its media type. */
export const text = (body: string, contentType: string): Reply<string, 200> => ({ status: 200, body, contentType });

/** 204; `session: null` closes the session the call was made in. */
export const noContent = (session?: null): Reply<null, 204> =>
  session === null ? { status: 204, body: null, session } : { status: 204, body: null };
