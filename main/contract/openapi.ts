// The console API's OpenAPI 3.1 document, built from the contract: each route declared schema first is a path
// item whose parameters, body and answer are its zod schemas, every failure the error body of the error table.
// The router serves it (GET /api/v1/openapi.json) and `npm run openapi` writes it to resources/openapi.json.
import { z } from './zod';
import { ROUTE_SCHEMAS } from './index';
import { apiErrorBodySchema } from './errors';
import type { Method, RouteSchemas } from './route';
import type { Role } from './users';

/** A route as the router holds it: who may call it is the router's, not the contract's. */
export interface RouteAccess {
  method: Method;
  pattern: string;
  access: 'public' | Role;
}

export interface OpenApiOptions {
  /** The manager's version (package.json). */
  version: string;
  /** The router's routes, for each one's security and minimum role. */
  routes: readonly RouteAccess[];
}

type Json = Record<string, unknown>;

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json>; securitySchemes: Record<string, Json> };
};

/** A schema that could not be written as JSON Schema (a transform's output, a date…): described as anything. */
export interface OpenApiGap {
  route: string;
  part: 'params' | 'query' | 'body' | 'result';
  message: string;
}

export const OPENAPI_TITLE = 'Navin Console manager API';
/** The cookie the headless transport keeps a session in, and the header that carries its CSRF token. */
export const SESSION_COOKIE_NAME = 'navin_session';
export const CSRF_HEADER = 'X-CSRF-Token';

const ERROR_RESPONSE = { $ref: '#/components/responses/Error' };

/** The document, and the schemas it had to describe as anything (none, as the tests require). */
export function openApiBuild(opts: OpenApiOptions): { document: OpenApiDocument; gaps: OpenApiGap[] } {
  const access = new Map(opts.routes.map((r) => [`${r.method} ${r.pattern}`, r.access]));
  const gaps: OpenApiGap[] = [];
  const schemas: Record<string, Json> = {};
  const paths: OpenApiDocument['paths'] = {};
  const table = ROUTE_SCHEMAS as Readonly<Record<string, RouteSchemas>>;
  for (const key of Object.keys(table).sort(byPath)) {
    const [method, pattern] = splitKey(key);
    const convert = (schema: z.ZodType, part: OpenApiGap['part']): Json =>
      jsonSchema(schema, part === 'result' ? 'output' : 'input', operationId(method, pattern), schemas, (message) =>
        gaps.push({ route: key, part, message }),
      );
    const item = (paths[openApiPath(pattern)] ??= {});
    item[method.toLowerCase()] = operation(key, table[key]!, access.get(key), convert);
  }
  const errorSchema = jsonSchema(apiErrorBodySchema, 'output', 'Error', schemas, (message) =>
    gaps.push({ route: 'error', part: 'result', message }),
  );
  schemas.Error = errorSchema;
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: OPENAPI_TITLE,
      version: opts.version,
      description:
        'The console API of the Navin Console manager: the routes the console itself calls, over HTTPS in headless mode. ' +
        `A session is the ${SESSION_COOKIE_NAME} cookie (a change also sends the session's ${CSRF_HEADER} header); ` +
        'a script sends an API token as Authorization: Bearer. x-navin-role is the least role a route needs.',
    },
    paths,
    components: {
      schemas,
      responses: {
        Error: {
          description: 'A failure: its code is one of the error table, its status the code’s (400 for a faulty field)',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE_NAME, description: 'the console session, set by a login' },
        csrf: { type: 'apiKey', in: 'header', name: CSRF_HEADER, description: 'the csrf_token of the session, on every change' },
        bearer: { type: 'http', scheme: 'bearer', description: 'an API token (navin-manager token create)' },
      },
    },
  };
  return { document, gaps };
}

export const openApiDocument = (opts: OpenApiOptions): OpenApiDocument => openApiBuild(opts).document;

type Convert = (schema: z.ZodType, part: OpenApiGap['part']) => Json;

function operation(key: string, route: RouteSchemas, access: 'public' | Role | undefined, convert: Convert): Json {
  const [method, pattern] = splitKey(key);
  const op: Json = { operationId: operationId(method, pattern), tags: [tagOf(pattern)] };
  const parameters = [...pathParameters(pattern, route, convert), ...queryParameters(route, convert)];
  if (parameters.length > 0) op.parameters = parameters;
  if (route.body) {
    op.requestBody = {
      required: !route.body.safeParse(undefined).success,
      content: { 'application/json': { schema: convert(route.body, 'body') } },
    };
  }
  op.responses = { [String(statusOf(route))]: answer(route, convert), default: ERROR_RESPONSE };
  if (access === 'public') op.security = [];
  else if (access !== undefined) {
    // The CSRF header is checked on changes made in a session; a read, or a call with a token, needs none.
    op.security = method === 'GET' ? [{ session: [] }, { bearer: [] }] : [{ session: [], csrf: [] }, { bearer: [] }];
    op['x-navin-role'] = access;
  }
  return op;
}

const isNull = (schema: z.ZodType): boolean => schema instanceof z.ZodNull;
const isText = (schema: z.ZodType): boolean => schema instanceof z.ZodString;

const statusOf = (route: RouteSchemas): number => route.status ?? (isNull(route.result) ? 204 : 200);

function answer(route: RouteSchemas, convert: Convert): Json {
  const status = statusOf(route);
  const description = status === 201 ? 'created' : status === 202 ? 'accepted: it goes on after the answer' : 'done';
  if (status === 204) return { description: 'done; no body' };
  const media = isText(route.result) ? (route.media ?? 'text/plain') : 'application/json';
  return { description, content: { [media]: { schema: convert(route.result, 'result') } } };
}

function pathParameters(pattern: string, route: RouteSchemas, convert: Convert): Json[] {
  const names = pattern
    .split('/')
    .filter((p) => p.startsWith(':'))
    .map((p) => p.slice(1));
  const declared = route.params ? properties(convert(route.params, 'params')) : {};
  return names.map((name) => ({ name, in: 'path', required: true, schema: declared[name] ?? { type: 'string' } }));
}

function queryParameters(route: RouteSchemas, convert: Convert): Json[] {
  if (!route.query) return [];
  const schema = convert(route.query, 'query');
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties(schema)).map(([name, s]) => {
    const p: Json = { name, in: 'query', required: required.has(name), schema: s };
    if (typeof s.description === 'string') p.description = s.description;
    return p;
  });
}

const properties = (schema: Json): Record<string, Json> => (schema.properties ?? {}) as Record<string, Json>;

/**
 * One schema as JSON Schema 2020-12 (the dialect of OpenAPI 3.1). What zod writes under `$defs` (a recursive or an
 * identified schema) moves to the document's components, named after the operation, and the `$ref`s follow.
 */
function jsonSchema(
  schema: z.ZodType,
  io: 'input' | 'output',
  owner: string,
  components: Record<string, Json>,
  gap: (message: string) => void,
): Json {
  const {
    $schema: _dialect,
    $defs,
    ...rest
  } = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: (ctx) => {
      gap(ctx.path.length > 0 ? `${ctx.message} (at ${ctx.path.join('.')})` : ctx.message);
      return 'any';
    },
  }) as Json;
  if (!$defs) return rest;
  const renamed = new Map<string, string>();
  for (const name of Object.keys($defs as Json)) renamed.set(`#/$defs/${name}`, `#/components/schemas/${owner}_${io}_${name}`);
  const moved = relink({ ...rest, $defs }, renamed) as Json;
  for (const [name, def] of Object.entries(moved.$defs as Json)) components[`${owner}_${io}_${name}`] = def as Json;
  delete moved.$defs;
  return moved;
}

function relink(value: unknown, renamed: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => relink(v, renamed));
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) out[k] = k === '$ref' && typeof v === 'string' ? (renamed.get(v) ?? v) : relink(v, renamed);
  return out;
}

const splitKey = (key: string): [Method, string] => {
  const space = key.indexOf(' ');
  return [key.slice(0, space) as Method, key.slice(space + 1)];
};

/** `/api/v1/clusters/:id` → `/api/v1/clusters/{id}`. */
export const openApiPath = (pattern: string): string => pattern.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

/** `GET /api/v1/clusters/:id/backups` → `get_clusters_id_backups`. */
const operationId = (method: string, pattern: string): string =>
  [method.toLowerCase(), ...pattern.replace(/^\/api\/v1\//, '').split('/')]
    .map((s) => s.replace(/^:/, '').replace(/[^A-Za-z0-9]+/g, '_'))
    .join('_');

/** The family a route belongs to: the first segment of its path (`clusters`, `session`, …). */
const tagOf = (pattern: string): string => pattern.replace(/^\/api\/v1\//, '').split('/')[0]!;

const METHOD_ORDER: readonly string[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Paths in order, each path's methods in the usual order, so the written document diffs well. */
function byPath(a: string, b: string): number {
  const [ma, pa] = splitKey(a);
  const [mb, pb] = splitKey(b);
  return pa < pb ? -1 : pa > pb ? 1 : METHOD_ORDER.indexOf(ma) - METHOD_ORDER.indexOf(mb);
}
