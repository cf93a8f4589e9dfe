// The HTTP front of the API: faults, authentication, impersonation, authorization, then discovery or the REST verbs.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import type { Authenticator } from './authn.js';
import { serviceAccountUser } from './authn.js';
import type { VersionInfo } from './discovery.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions } from './discovery.js';
import type { DeleteOptions, Engine, FieldValidation, WriteOptions } from './engine.js';
import { gr } from './engine.js';
import type { FaultInjector } from './faults.js';
import { decodeBody, readBody, sendError, sendJson, sendText } from './http-util.js';
import type { OpenApi } from './openapi.js';
import { V2_PROTOBUF, V2_PROTOBUF_ACCEPT } from './openapi.js';
import { JSON_PATCH, MERGE_PATCH, jsonPatch, mergePatch, strategicMerge } from './patch.js';
import type { Attributes, RbacAuthorizer } from './rbac.js';
import { forbiddenMessage } from './rbac.js';
import { review, tokenRequest } from './reviews.js';
import type { RequestInfo } from './router.js';
import { parseBool, parseRequestInfo } from './router.js';
import * as errors from './status.js';
import { successStatus } from './status.js';
import { toTable } from './table.js';
import type { KubeObject, ResourceType, StoredObject, UserInfo } from './types.js';
import { groupVersion, hasSubresource, isPlainObject } from './types.js';
import type { WatchSettings } from './watch.js';
import { serveWatch } from './watch.js';

export interface RequestRecord {
  method: string;
  path: string;
  query: string;
  contentType: string;
  accept: string;
  user: string;
  code: number;
}

export interface ServerContext {
  engine: Engine;
  authn: Authenticator;
  rbac: RbacAuthorizer;
  faults: FaultInjector;
  version: VersionInfo;
  serverAddress: () => string;
  watch: WatchSettings;
  requests: RequestRecord[];
  openapi: OpenApi;
}

const HEALTH = /^\/(healthz|livez|readyz)(\/.*)?$/;

const attributesOf = (info: RequestInfo, user: UserInfo): Attributes => ({
  user,
  verb: info.verb,
  resourceRequest: info.resourceRequest,
  path: info.path,
  namespace: info.namespace,
  apiGroup: info.group,
  apiVersion: info.version,
  resource: info.resource,
  subresource: info.subresource,
  name: info.name,
});

const deny = (a: Attributes): errors.StatusError =>
  a.resourceRequest
    ? errors.forbidden({ group: a.apiGroup, resource: a.resource }, a.name, forbiddenMessage(a))
    : errors.forbidden(undefined, '', forbiddenMessage(a));

const headerList = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Impersonate-User / Impersonate-Group, each checked with the `impersonate` verb like the real filter. */
const impersonate = (ctx: ServerContext, req: IncomingMessage, user: UserInfo): UserInfo => {
  const as = headerList(req.headers['impersonate-user'])[0];
  const groups = headerList(req.headers['impersonate-group']);
  if (!as && groups.length === 0) return user;
  if (!as) throw errors.badRequest('requested Impersonate-Group without Impersonate-User');
  const check = (resource: string, name: string, namespace = ''): void => {
    const a: Attributes = {
      user,
      verb: 'impersonate',
      resourceRequest: true,
      path: '',
      namespace,
      apiGroup: '',
      apiVersion: '',
      resource,
      subresource: '',
      name,
    };
    if (!ctx.rbac.authorize(a).allowed) throw deny(a);
  };
  const sa = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(as);
  if (sa) check('serviceaccounts', sa[2] ?? '', sa[1] ?? '');
  else check('users', as);
  groups.forEach((g) => check('groups', g));
  if (sa)
    return {
      ...serviceAccountUser(sa[1] ?? '', sa[2] ?? ''),
      groups: [...new Set([...serviceAccountUser(sa[1] ?? '', sa[2] ?? '').groups, ...groups])],
    };
  return { username: as, groups: [...new Set([...groups, 'system:authenticated'])] };
};

/** ETag revalidation: 304 when the client holds this version. */
const sendCached = (
  req: IncomingMessage,
  res: ServerResponse,
  etag: string,
  contentType: string,
  body: Buffer | string,
  cache: string,
): void => {
  const headers = { ETag: etag, Vary: 'Accept', 'Cache-Control': cache };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
};

const accepts = (req: IncomingMessage, type: string): boolean => {
  const accept = req.headers.accept ?? '';
  return (
    accept === '' ||
    accept.split(',').some((a) => {
      const t = a.split(';')[0]?.trim() ?? '';
      return t === type || t === '*/*' || t === 'application/*';
    })
  );
};

const notAcceptable = (res: ServerResponse, offered: string[]): void =>
  sendJson(res, 406, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `only the following media types are accepted: ${offered.join(', ')}`,
    reason: 'NotAcceptable',
    code: 406,
  });

/** /openapi/v2 (JSON or protobuf by Accept), /openapi/v3 and /openapi/v3/{group-version}[?hash=]. */
const serveOpenApi = (ctx: ServerContext, path: string, query: URLSearchParams, req: IncomingMessage, res: ServerResponse): void => {
  if (path === '/openapi/v2') {
    if (V2_PROTOBUF_ACCEPT.some((t) => (req.headers.accept ?? '').includes(t))) {
      const pb = ctx.openapi.v2Protobuf();
      const etag = `"${createHash('sha512').update(pb).digest('hex').toUpperCase()}"`;
      return sendCached(req, res, etag, V2_PROTOBUF, pb, 'no-cache, private');
    }
    if (!accepts(req, 'application/json')) return notAcceptable(res, ['application/json', ...V2_PROTOBUF_ACCEPT]);
    const text = JSON.stringify(ctx.openapi.v2());
    return sendCached(
      req,
      res,
      `"${createHash('sha512').update(text).digest('hex').toUpperCase()}"`,
      'application/json',
      text,
      'no-cache, private',
    );
  }
  if (path === '/openapi/v3' || path === '/openapi/v3/') return sendJson(res, 200, ctx.openapi.v3Discovery());
  const d = ctx.openapi.v3(path.slice('/openapi/v3/'.length).replace(/\/$/, ''));
  if (!d) return sendText(res, 404, '404 page not found\n');
  if (!accepts(req, 'application/json')) return notAcceptable(res, ['application/json']);
  const hash = query.get('hash');
  if (hash !== null && hash !== d.hash) {
    res.writeHead(301, { Location: `${path}?hash=${d.hash}`, 'Cache-Control': 'no-cache, private', 'Content-Length': 0 });
    res.end();
    return;
  }
  sendCached(req, res, `"${d.hash}"`, 'application/json', JSON.stringify(d.doc), hash === null ? 'no-cache, private' : 'public, immutable');
};

const nonResource = (ctx: ServerContext, method: string, url: URL, req: IncomingMessage, res: ServerResponse): void => {
  if (method !== 'GET' && method !== 'HEAD') return sendJson(res, 405, errors.methodNotAllowed().status);
  const path = url.pathname;
  if (path === '/openapi/v2' || path === '/openapi/v3' || path.startsWith('/openapi/v3/'))
    return serveOpenApi(ctx, path, url.searchParams, req, res);
  const reg = ctx.engine.registry;
  const parts = path.split('/').filter(Boolean);
  let body: object | undefined;
  if (path === '/version' || path === '/version/') body = ctx.version;
  else if (path === '/api' || path === '/api/') body = apiVersions(ctx.serverAddress());
  else if (path === '/apis' || path === '/apis/') body = apiGroupList(reg);
  else if (parts[0] === 'api' && parts.length === 2) body = apiResourceList(reg, '', parts[1] ?? '');
  else if (parts[0] === 'apis' && parts.length === 2) body = apiGroup(reg, parts[1] ?? '');
  else if (parts[0] === 'apis' && parts.length === 3) body = apiResourceList(reg, parts[1] ?? '', parts[2] ?? '');
  if (body) return sendJson(res, 200, body);
  sendText(res, 404, '404 page not found\n');
};

/** List responses leave kind and apiVersion out of built-in items, as the real serializer does. */
const listBody = (rt: ResourceType, items: StoredObject[], meta: object): object => ({
  kind: rt.listKind,
  apiVersion: groupVersion(rt.group, rt.version),
  metadata: meta,
  items: rt.crd ? items : items.map(({ apiVersion: _a, kind: _k, ...rest }) => rest),
});

const wantsTable = (req: IncomingMessage): boolean => (req.headers.accept ?? '').includes('as=Table');

const warningHeaders = (warnings: string[]): Record<string, string> =>
  warnings.length ? { Warning: warnings.map((w) => `299 - ${JSON.stringify(w)}`).join(', ') } : {};

const scaleOf = (o: StoredObject): object => {
  const spec = (o.spec ?? {}) as { replicas?: number; selector?: { matchLabels?: Record<string, string> } };
  const status = (o.status ?? {}) as { replicas?: number };
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: o.metadata.name,
      namespace: o.metadata.namespace,
      uid: o.metadata.uid,
      resourceVersion: o.metadata.resourceVersion,
      creationTimestamp: o.metadata.creationTimestamp,
    },
    spec: { replicas: spec.replicas ?? 0 },
    status: {
      replicas: status.replicas ?? 0,
      selector: Object.entries(spec.selector?.matchLabels ?? {})
        .map(([k, v]) => `${k}=${v}`)
        .join(','),
    },
  };
};

const serveScale = async (
  ctx: ServerContext,
  rt: ResourceType,
  ns: string | undefined,
  name: string,
  req: IncomingMessage,
  res: ServerResponse,
  opts: WriteOptions,
): Promise<void> => {
  const current = ctx.engine.get(rt, ns, name);
  if (req.method === 'GET') return sendJson(res, 200, scaleOf(current));
  const text = await readBody(req);
  const type = (req.headers['content-type'] ?? '').split(';')[0] ?? '';
  let scale: unknown = decodeBody(text, type, parseYaml);
  if (req.method === 'PATCH') {
    const base = scaleOf(current);
    scale = type === JSON_PATCH ? jsonPatch(base, scale) : type === MERGE_PATCH ? mergePatch(base, scale) : strategicMerge(base, scale);
  }
  const s = (isPlainObject(scale) ? scale : {}) as { metadata?: { resourceVersion?: string }; spec?: { replicas?: number } };
  const next = { ...current, spec: { ...(current.spec as object), replicas: s.spec?.replicas ?? 0 } };
  next.metadata = { ...current.metadata, resourceVersion: s.metadata?.resourceVersion || current.metadata.resourceVersion };
  const { object } = ctx.engine.update(rt, ns, name, next, '', opts);
  sendJson(res, 200, scaleOf(object));
};

const FIELD_VALIDATION: readonly FieldValidation[] = ['Strict', 'Warn', 'Ignore'];

/** dryRun, fieldManager (else the User-Agent's product, as managerOrUserAgent()), fieldValidation and force. */
const writeOptions = (query: URLSearchParams, req: IncomingMessage): WriteOptions => {
  const fieldManager = query.get('fieldManager') ?? undefined;
  const validation = query.get('fieldValidation') ?? 'Warn';
  if (!FIELD_VALIDATION.includes(validation as FieldValidation)) {
    throw errors.badRequest(`fieldValidation parameter unsupported: ${validation}`);
  }
  const force = query.get('force');
  return {
    ...(query.get('dryRun') === 'All' ? { dryRun: true } : {}),
    ...(fieldManager ? { fieldManager } : {}),
    manager: fieldManager || (req.headers['user-agent'] ?? '').split('/')[0] || '',
    fieldValidation: validation as FieldValidation,
    ...(force !== null ? { force: parseBool(force) } : {}),
  };
};

const deleteOptions = (body: unknown, query: URLSearchParams): DeleteOptions => {
  const b = (isPlainObject(body) ? body : {}) as DeleteOptions;
  const propagationPolicy = query.get('propagationPolicy') ?? b.propagationPolicy;
  return { ...(b.preconditions ? { preconditions: b.preconditions } : {}), ...(propagationPolicy ? { propagationPolicy } : {}) };
};

const resourceRequest = async (
  ctx: ServerContext,
  info: RequestInfo,
  user: UserInfo,
  query: URLSearchParams,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> => {
  const { engine } = ctx;
  const rt = engine.registry.find(info.group, info.version, info.resource);
  if (!rt) throw errors.resourceNotFound();
  if (info.namespace && !rt.namespaced && rt.plural !== 'namespaces') throw errors.resourceNotFound();
  const ns = rt.namespaced ? info.namespace || undefined : undefined;
  const { verb, subresource: sub } = info;
  const name = verb === 'list' || verb === 'watch' ? '' : info.name;
  if (sub && !hasSubresource(rt, sub)) throw errors.resourceNotFound();
  if (!sub && (!rt.verbs.includes(verb) || (verb === 'create' && name))) throw errors.methodNotAllowed();
  if (rt.namespaced && !ns && verb !== 'list' && verb !== 'watch') throw errors.resourceNotFound();
  const opts = writeOptions(query, req);
  const contentType = req.headers['content-type'] ?? 'application/json';
  const body = async (): Promise<unknown> => decodeBody(await readBody(req), contentType, parseYaml);
  const present = (o: StoredObject): object =>
    wantsTable(req) ? toTable(rt, [o], { resourceVersion: o.metadata.resourceVersion }, query.get('includeObject') ?? undefined) : o;

  if (rt.virtual) {
    if (verb !== 'create') throw errors.methodNotAllowed();
    return sendJson(
      res,
      201,
      review({ engine, authn: ctx.authn, rbac: ctx.rbac, user }, rt.plural, info.namespace, (await body()) as KubeObject),
    );
  }
  if (sub === 'token') {
    if (verb !== 'create') throw errors.methodNotAllowed();
    return sendJson(
      res,
      201,
      tokenRequest({ engine, authn: ctx.authn, rbac: ctx.rbac, user }, info.namespace, name, (await body()) as KubeObject),
    );
  }
  if (sub === 'scale') return serveScale(ctx, rt, ns, name, req, res, opts);
  if (sub && !['get', 'update', 'patch'].includes(verb)) throw errors.methodNotAllowed();

  switch (verb) {
    case 'get':
      return sendJson(res, 200, present(engine.get(rt, ns, name)));
    case 'list': {
      const limit = Number(query.get('limit') ?? '0');
      const r = engine.list(rt, ns, {
        labelSelector: query.get('labelSelector'),
        fieldSelector: query.get('fieldSelector'),
        limit,
        continue: query.get('continue'),
      });
      const meta = {
        resourceVersion: r.resourceVersion,
        ...(r.continue ? { continue: r.continue, remainingItemCount: r.remainingItemCount } : {}),
      };
      return sendJson(
        res,
        200,
        wantsTable(req) ? toTable(rt, r.items, meta, query.get('includeObject') ?? undefined) : listBody(rt, r.items, meta),
      );
    }
    case 'watch':
      return serveWatch(
        engine,
        rt,
        ns,
        query,
        res,
        ctx.watch,
        wantsTable(req) ? { includeObject: query.get('includeObject') ?? 'Metadata' } : undefined,
      );
    case 'create': {
      const r = engine.create(rt, ns, await body(), opts);
      return sendJson(res, 201, r.object, warningHeaders(r.warnings));
    }
    case 'update': {
      const r = engine.update(rt, ns, name, await body(), sub, opts);
      return sendJson(res, 200, r.object, warningHeaders(r.warnings));
    }
    case 'patch': {
      const r = engine.patch(rt, ns, name, contentType, await readBody(req), sub, opts);
      return sendJson(res, r.created ? 201 : 200, r.object, warningHeaders(r.warnings));
    }
    case 'delete': {
      const text = await readBody(req);
      const r = engine.delete(rt, ns, name, deleteOptions(text ? decodeBody(text, contentType, parseYaml) : {}, query), opts);
      if (r.deleted && !rt.returnDeletedObject) {
        const { group, resource } = gr(rt);
        return sendJson(res, 200, successStatus({ name, ...(group ? { group } : {}), kind: resource, uid: r.object.metadata.uid }));
      }
      return sendJson(res, 200, r.object);
    }
    case 'deletecollection': {
      const text = await readBody(req);
      const q = { labelSelector: query.get('labelSelector'), fieldSelector: query.get('fieldSelector') };
      const items = engine.deleteCollection(rt, ns, q, deleteOptions(text ? decodeBody(text, contentType, parseYaml) : {}, query), opts);
      return sendJson(res, 200, listBody(rt, items, { resourceVersion: String(engine.store.currentRevision()) }));
    }
    default:
      throw errors.methodNotAllowed();
  }
};

export const handleRequest = async (ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void> => {
  const url = new URL(req.url ?? '/', 'https://localhost');
  const method = req.method ?? 'GET';
  const record: RequestRecord = {
    method,
    path: url.pathname,
    query: url.search,
    contentType: req.headers['content-type'] ?? '',
    accept: req.headers.accept ?? '',
    user: '',
    code: 0,
  };
  ctx.requests.push(record);
  if (ctx.requests.length > 1000) ctx.requests.shift();
  res.on('finish', () => (record.code = res.statusCode));
  try {
    await ctx.faults.delay();
    const fault = ctx.faults.take(method, url.pathname);
    if (fault) throw fault;
    if (HEALTH.test(url.pathname)) return sendText(res, 200, 'ok');
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice(7).trim() : '';
    const authenticated = token
      ? ctx.authn.authenticate(token, (ns, name) => ctx.engine.store.get('/serviceaccounts', ns, name))
      : undefined;
    if (!authenticated) throw errors.unauthorized();
    const user = impersonate(ctx, req, authenticated);
    record.user = user.username;
    const info = parseRequestInfo(method, url.pathname, url.searchParams);
    const attrs = attributesOf(info, user);
    if (!ctx.rbac.authorize(attrs).allowed) throw deny(attrs);
    if (!info.resourceRequest) return nonResource(ctx, method, url, req, res);
    await resourceRequest(ctx, info, user, url.searchParams, req, res);
  } catch (e) {
    sendError(res, e);
  }
};
