// An OPA test server: the documented REST behaviour of OPA's Policy API, Data API (POST and GET) and Health
// API, over HTTP on loopback, evaluating the Rego subset of rego-subset.ts. Anything else answers 501 with a
// message saying this server does not implement it, so a test can never pass on behaviour it only imagines.
// The policy listing carries id and raw; the AST OPA adds is not produced here.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { evaluateModule, parseModule, RegoError, type RegoModule } from './rego-subset';

interface Policy {
  id: string;
  raw: string;
  module: RegoModule;
}

export interface OpaTestServer {
  url: string;
  port: number;
  policies(): string[];
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function read(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const notFound = (id: string) => ({ code: 'resource_not_found', message: `storage_not_found_error: policy id ${JSON.stringify(id)}` });

/** Listens on 127.0.0.1:port (a free one when 0); policies live in memory, as OPA's do without bundles. */
export function opaTestServer(port = 0): Promise<OpaTestServer> {
  const policies = new Map<string, Policy>();

  function compile(id: string, raw: string): RegoModule {
    const module = parseModule(raw);
    // The same package may span modules, but one rule's default may be declared once across them.
    for (const other of policies.values()) {
      if (other.id === id || other.module.path.join('.') !== module.path.join('.')) continue;
      for (const name of module.defaults.keys()) {
        if (other.module.defaults.has(name))
          throw new RegoError('rego_type_error', `multiple default rules data.${module.path.join('.')}.${name} found`, 1);
      }
    }
    return module;
  }

  /** The whole virtual document for an input, then walked down the path. */
  function data(path: string[], input: unknown): { defined: boolean; value?: unknown } {
    const root: Record<string, unknown> = {};
    for (const p of policies.values()) {
      let node = root;
      for (const seg of p.module.path) node = (node[seg] ??= {}) as Record<string, unknown>;
      Object.assign(node, evaluateModule(p.module, input));
    }
    let cur: unknown = root;
    for (const seg of path) {
      if (typeof cur !== 'object' || cur === null || !Object.hasOwn(cur, seg)) return { defined: false };
      cur = (cur as Record<string, unknown>)[seg];
    }
    return { defined: true, value: cur };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    if (url.pathname === '/health' && method === 'GET') return send(res, 200, {});
    if (url.pathname === '/v1/policies' && method === 'GET') {
      return send(res, 200, { result: [...policies.values()].map((p) => ({ id: p.id, raw: p.raw })) });
    }
    const policy = /^\/v1\/policies\/(.+)$/.exec(url.pathname);
    if (policy) {
      const id = decodeURIComponent(policy[1]!);
      if (method === 'GET')
        return policies.has(id) ? send(res, 200, { result: { id, raw: policies.get(id)!.raw } }) : send(res, 404, notFound(id));
      if (method === 'DELETE') {
        if (!policies.delete(id)) return send(res, 404, notFound(id));
        return send(res, 200, {});
      }
      if (method === 'PUT') {
        const raw = await read(req);
        try {
          policies.set(id, { id, raw, module: compile(id, raw) });
        } catch (error) {
          if (!(error instanceof RegoError)) throw error;
          return send(res, 400, {
            code: 'invalid_parameter',
            message: 'error(s) occurred while compiling module(s)',
            errors: [{ code: error.code, message: error.message, location: { file: id, row: error.row, col: 1 } }],
          });
        }
        return send(res, 200, {});
      }
    }
    const dataPath = /^\/v1\/data(?:\/(.*))?$/.exec(url.pathname);
    if (dataPath && (method === 'POST' || method === 'GET')) {
      const path = (dataPath[1] ?? '').split('/').filter(Boolean).map(decodeURIComponent);
      let input: unknown;
      if (method === 'POST') {
        const text = await read(req);
        if (text.trim() !== '') {
          try {
            input = (JSON.parse(text) as { input?: unknown }).input;
          } catch {
            return send(res, 400, { code: 'invalid_parameter', message: 'body contains malformed input document' });
          }
        }
      }
      try {
        const r = data(path, input);
        return send(res, 200, r.defined ? { result: r.value } : {});
      } catch (error) {
        if (!(error instanceof RegoError)) throw error;
        return send(res, 500, { code: 'internal_error', message: `${error.code}: ${error.message}` });
      }
    }
    send(res, 501, { code: 'not_implemented', message: `${method} ${url.pathname} is not implemented by the OPA test server` });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { code: 'internal_error', message: String(error) }));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject).listen(port, '127.0.0.1', () => {
      const bound = (server.address() as { port: number }).port;
      resolve({
        url: `http://127.0.0.1:${bound}`,
        port: bound,
        policies: () => [...policies.keys()],
        close: () =>
          new Promise<void>((r) => {
            server.close(() => r());
            server.closeAllConnections();
          }),
      });
    });
  });
}
