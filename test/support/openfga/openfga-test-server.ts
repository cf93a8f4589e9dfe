// An OpenFGA test server: the documented HTTP API for stores, authorization models (schema 1.1), tuple writes
// and reads, and Check, over HTTP on loopback, in memory. Relations are direct only (`this` with its
// directly related user types): a model using computed usersets, tuple-to-userset, unions, conditions or
// wildcards is refused with 400 saying this server does not support it, so nothing is evaluated wrongly.
// Listings return one page (no continuation); anything else answers 501.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

interface TupleKey {
  user: string;
  relation: string;
  object: string;
}
interface TypeDefinition {
  type: string;
  relations?: Record<string, Record<string, unknown>>;
  metadata?: {
    relations?: Record<
      string,
      { directly_related_user_types?: { type: string; relation?: string; wildcard?: unknown; condition?: string }[] }
    >;
  };
}
interface Model {
  id: string;
  schema_version: string;
  type_definitions: TypeDefinition[];
}
interface Store {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
  deleted: boolean;
  models: Model[];
  tuples: Map<string, { key: TupleKey; timestamp: string }>;
}

export interface OpenfgaTestServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** A ULID (26 Crockford base32 characters: 48-bit milliseconds, 80 random bits), the form of OpenFGA's ids. */
export function ulid(now = Date.now()): string {
  let time = '';
  for (let t = now, i = 0; i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32]! + time;
  return time + [...randomBytes(16)].map((b) => CROCKFORD[b % 32]).join('');
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
const invalid = (message: string) => new ApiError(400, 'validation_error', message);

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not an object');
    return v as Record<string, unknown>;
  } catch {
    throw invalid('invalid request body');
  }
}

const tupleId = (t: TupleKey) => `${t.object}#${t.relation}@${t.user}`;
const OBJECT = /^([^:#@\s]+):([^#@\s]+)$/;

function validateModel(body: Record<string, unknown>): Omit<Model, 'id'> {
  if (body.schema_version !== '1.1') throw invalid(`schema_version ${JSON.stringify(body.schema_version)} is not supported (1.1 only)`);
  if (body.conditions && Object.keys(body.conditions as object).length > 0)
    throw invalid('conditions are not supported by the OpenFGA test server');
  const defs = body.type_definitions;
  if (!Array.isArray(defs) || defs.length === 0) throw invalid('type_definitions must be a non-empty list');
  const types = new Set<string>();
  for (const d of defs as TypeDefinition[]) {
    if (typeof d?.type !== 'string' || d.type === '') throw invalid('every type definition needs a type');
    if (types.has(d.type)) throw invalid(`the type ${d.type} is defined twice`);
    types.add(d.type);
  }
  for (const d of defs as TypeDefinition[]) {
    for (const [relation, userset] of Object.entries(d.relations ?? {})) {
      const kinds = Object.keys(userset);
      if (kinds.length !== 1 || kinds[0] !== 'this') {
        throw invalid(`${d.type}#${relation}: only direct relations (this) are supported by the OpenFGA test server`);
      }
      const direct = d.metadata?.relations?.[relation]?.directly_related_user_types ?? [];
      if (direct.length === 0)
        throw invalid(`the assignable relation '${relation}' in object type '${d.type}' must contain at least one type`);
      for (const u of direct) {
        if (u.relation || u.wildcard !== undefined || u.condition)
          throw invalid(`${d.type}#${relation}: usersets, wildcards and conditions are not supported by the OpenFGA test server`);
        if (!types.has(u.type)) throw invalid(`type '${u.type}' is not defined`);
      }
    }
  }
  return { schema_version: '1.1', type_definitions: defs as TypeDefinition[] };
}

/** A tuple judged against the model; a Check does not restrict the user's type (it is then just not allowed). */
function validateTuple(model: Model, t: unknown, forCheck = false): TupleKey {
  const k = t as Partial<TupleKey> | null;
  if (!k || typeof k.user !== 'string' || typeof k.relation !== 'string' || typeof k.object !== 'string')
    throw invalid('a tuple key needs user, relation and object');
  const obj = OBJECT.exec(k.object);
  if (!obj) throw invalid(`invalid 'object' field format: ${k.object}`);
  const def = model.type_definitions.find((d) => d.type === obj[1]);
  if (!def) throw invalid(`type '${obj[1]}' not found`);
  if (!def.relations?.[k.relation]) throw invalid(`relation '${obj[1]}#${k.relation}' not found`);
  const user = OBJECT.exec(k.user);
  if (!user) throw invalid(`the 'user' field is malformed: ${k.user}`);
  const allowed = def.metadata?.relations?.[k.relation]?.directly_related_user_types ?? [];
  if (!forCheck && !allowed.some((u) => u.type === user[1]))
    throw invalid(`type '${user[1]}' is not an allowed type restriction for '${obj[1]}#${k.relation}'`);
  return { user: k.user, relation: k.relation, object: k.object };
}

export function openfgaTestServer(port = 0): Promise<OpenfgaTestServer> {
  const stores = new Map<string, Store>();
  const view = (s: Store) => ({ id: s.id, name: s.name, created_at: s.created_at, updated_at: s.updated_at });

  function store(id: string): Store {
    const s = stores.get(id);
    if (!s || s.deleted) throw new ApiError(404, 'store_id_not_found', 'store_id_not_found');
    return s;
  }
  function model(s: Store, id: unknown): Model {
    if (id === undefined || id === '') {
      const latest = s.models[s.models.length - 1];
      if (!latest) throw new ApiError(400, 'latest_authorization_model_not_found', 'No authorization models found for store');
      return latest;
    }
    const m = s.models.find((x) => x.id === id);
    if (!m) throw new ApiError(400, 'authorization_model_not_found', 'Authorization Model not found');
    return m;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const now = new Date().toISOString();
    if (url.pathname === '/healthz' && method === 'GET') return send(res, 200, { status: 'SERVING' });
    if (parts[0] !== 'stores')
      throw new ApiError(501, 'not_implemented', `${method} ${url.pathname} is not implemented by the OpenFGA test server`);
    if (parts.length === 1 && method === 'POST') {
      const body = await readJson(req);
      if (typeof body.name !== 'string' || body.name.length < 1 || body.name.length > 64)
        throw invalid('invalid CreateStoreRequest.Name: value length must be between 1 and 64 runes');
      const s: Store = { id: ulid(), name: body.name, created_at: now, updated_at: now, deleted: false, models: [], tuples: new Map() };
      stores.set(s.id, s);
      return send(res, 201, view(s));
    }
    if (parts.length === 1 && method === 'GET') {
      const name = url.searchParams.get('name');
      const list = [...stores.values()].filter((s) => !s.deleted && (!name || s.name === name));
      return send(res, 200, { stores: list.map(view), continuation_token: '' });
    }
    const s = store(parts[1] ?? '');
    const rest = parts.slice(2).join('/');
    if (rest === '' && method === 'GET') return send(res, 200, view(s));
    if (rest === '' && method === 'DELETE') {
      s.deleted = true;
      return send(res, 204);
    }
    if (rest === 'authorization-models' && method === 'POST') {
      const m: Model = { id: ulid(), ...validateModel(await readJson(req)) };
      s.models.push(m);
      return send(res, 201, { authorization_model_id: m.id });
    }
    if (rest === 'authorization-models' && method === 'GET') {
      return send(res, 200, { authorization_models: [...s.models].reverse(), continuation_token: '' });
    }
    if (parts[2] === 'authorization-models' && parts.length === 4 && method === 'GET') {
      const m = s.models.find((x) => x.id === parts[3]);
      if (!m) throw new ApiError(404, 'authorization_model_not_found', 'Authorization Model not found');
      return send(res, 200, { authorization_model: m });
    }
    if (rest === 'write' && method === 'POST') {
      const body = await readJson(req);
      const m = model(s, body.authorization_model_id);
      const writes = body.writes as { tuple_keys?: unknown[]; on_duplicate?: string } | undefined;
      const deletes = body.deletes as { tuple_keys?: unknown[]; on_missing?: string } | undefined;
      const add = (writes?.tuple_keys ?? []).map((t) => validateTuple(m, t));
      const remove = (deletes?.tuple_keys ?? []).map((t) => validateTuple(m, t));
      if (add.length + remove.length === 0) throw invalid('writes and deletes are empty');
      // One transaction: every tuple is judged before any is changed.
      for (const t of add) {
        if (s.tuples.has(tupleId(t)) && writes?.on_duplicate !== 'ignore') {
          throw new ApiError(
            400,
            'write_failed_due_to_invalid_input',
            `cannot write a tuple which already exists: user: '${t.user}', relation: '${t.relation}', object: '${t.object}'`,
          );
        }
      }
      for (const t of remove) {
        if (!s.tuples.has(tupleId(t)) && deletes?.on_missing !== 'ignore') {
          throw new ApiError(
            400,
            'write_failed_due_to_invalid_input',
            `cannot delete a tuple which does not exist: user: '${t.user}', relation: '${t.relation}', object: '${t.object}'`,
          );
        }
      }
      for (const t of remove) s.tuples.delete(tupleId(t));
      for (const t of add) if (!s.tuples.has(tupleId(t))) s.tuples.set(tupleId(t), { key: t, timestamp: now });
      return send(res, 200, {});
    }
    if (rest === 'read' && method === 'POST') {
      const body = await readJson(req);
      const f = (body.tuple_key ?? {}) as Partial<TupleKey>;
      const tuples = [...s.tuples.values()].filter(
        ({ key }) =>
          (!f.user || key.user === f.user) &&
          (!f.relation || key.relation === f.relation) &&
          (!f.object || key.object === f.object || (f.object.endsWith(':') && key.object.startsWith(f.object))),
      );
      return send(res, 200, { tuples, continuation_token: '' });
    }
    if (rest === 'check' && method === 'POST') {
      const body = await readJson(req);
      const m = model(s, body.authorization_model_id);
      const key = validateTuple(m, body.tuple_key, true);
      const contextual = ((body.contextual_tuples as { tuple_keys?: unknown[] } | undefined)?.tuple_keys ?? []).map((t) =>
        validateTuple(m, t),
      );
      const allowed = s.tuples.has(tupleId(key)) || contextual.some((t) => tupleId(t) === tupleId(key));
      return send(res, 200, { allowed, resolution: '' });
    }
    throw new ApiError(501, 'not_implemented', `${method} ${url.pathname} is not implemented by the OpenFGA test server`);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof ApiError) send(res, error.status, { code: error.code, message: error.message });
      else send(res, 500, { code: 'internal_error', message: String(error) });
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject).listen(port, '127.0.0.1', () => {
      const bound = (server.address() as { port: number }).port;
      resolve({
        url: `http://127.0.0.1:${bound}`,
        port: bound,
        close: () =>
          new Promise<void>((r) => {
            server.close(() => r());
            server.closeAllConnections();
          }),
      });
    });
  });
}
