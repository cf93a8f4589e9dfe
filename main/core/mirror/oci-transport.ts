// The HTTP side of the OCI client: one keep-alive agent trusting the mirror's CA, requests read whole or streamed,
// and the registry's refusals turned into mirror errors.
import { isRepositoryName } from '../catalog/mirror-keys';
import { Agent, request, type RequestOptions } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { MirrorError, transportError } from './mirror-errors';

export interface MirrorEndpoint {
  /** https://host[:port][/prefix]: a path is a repository prefix every repository name is put under. */
  url: string;
  /** The mirror's CA; without one the system trust store is used. */
  ca_pem: string | null;
}

export interface OciClientOptions {
  /** Idle time on a socket before a request fails (default 30 s). */
  timeoutMs?: number;
  /** Parallel connections to the mirror (default 8). */
  maxSockets?: number;
  userAgent?: string;
}

/** The OCI spec lets registries refuse manifests over 4 MiB; we read no more than that. */
export const MAX_MANIFEST_BYTES = 4 << 20;

export interface Exchange {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export const header = (h: IncomingHttpHeaders, name: string): string | null => {
  const v = h[name];
  return (Array.isArray(v) ? v[0] : v) ?? null;
};

/** The first error of an OCI error body, e.g. `MANIFEST_UNKNOWN: manifest unknown`. */
function registryError(body: Buffer): { code: string; message: string } | null {
  try {
    const e = (JSON.parse(body.toString('utf8')) as { errors?: { code?: unknown; message?: unknown }[] }).errors?.[0];
    if (e && typeof e.code === 'string') return { code: e.code, message: typeof e.message === 'string' ? e.message : '' };
  } catch {
    // not JSON: the status says enough
  }
  return null;
}

export class OciTransport {
  readonly base: URL;
  readonly prefix: string;
  private readonly agent: Agent;
  private readonly timeoutMs: number;
  private readonly userAgent: string;

  constructor(endpoint: MirrorEndpoint, opts: OciClientOptions = {}) {
    this.base = new URL(endpoint.url);
    if (this.base.protocol !== 'https:') throw new MirrorError('mirror_error', 'the mirror is reached over https:// only');
    this.prefix = this.base.pathname.replace(/^\/+|\/+$/g, '');
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.userAgent = opts.userAgent ?? 'navin-manager';
    this.agent = new Agent({
      keepAlive: true,
      maxSockets: opts.maxSockets ?? 8,
      minVersion: 'TLSv1.2',
      ...(endpoint.ca_pem ? { ca: endpoint.ca_pem } : {}),
    });
  }

  /** host[:port] of the mirror, as image references name it. */
  get host(): string {
    return this.base.host;
  }

  /** The repository as the mirror names it (under the URL's path prefix). */
  repositoryPath(repository: string): string {
    if (!isRepositoryName(repository)) throw new MirrorError('mirror_error', `not a repository name: ${JSON.stringify(repository)}`);
    return this.prefix ? `${this.prefix}/${repository}` : repository;
  }

  close(): void {
    this.agent.destroy();
  }

  url(path: string): URL {
    return new URL(path, this.base.origin);
  }

  private options(method: string, headers: Record<string, string | number>): RequestOptions {
    return { method, agent: this.agent, timeout: this.timeoutMs, headers: { 'User-Agent': this.userAgent, ...headers } };
  }

  /** One request; the answer is read whole (at most `limit` bytes). */
  exchange(
    method: string,
    target: URL,
    headers: Record<string, string | number> = {},
    body?: Buffer,
    limit = MAX_MANIFEST_BYTES,
  ): Promise<Exchange> {
    return new Promise((resolve, reject) => {
      const req = request(target, this.options(method, body ? { 'Content-Length': body.length, ...headers } : headers), (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > limit) {
            res.destroy();
            reject(new MirrorError('mirror_error', `${method} ${target.pathname}: the answer is larger than ${limit} bytes`));
          } else chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', (e: NodeJS.ErrnoException) => reject(transportError(e, target.origin)));
      });
      req.on('timeout', () => req.destroy(Object.assign(new Error(`no answer within ${this.timeoutMs} ms`), { code: 'ETIMEDOUT' })));
      req.on('error', (e: NodeJS.ErrnoException) => reject(e instanceof MirrorError ? e : transportError(e, target.origin)));
      req.end(body);
    });
  }

  /** One request whose answer is streamed to the caller (a blob). Follows redirects to the storage backend. */
  open(target: URL, headers: Record<string, string> = {}, redirects = 5): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = request(target, this.options('GET', headers), (res) => {
        const location = header(res.headers, 'location');
        if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location && redirects > 0) {
          res.resume();
          this.open(new URL(location, target), {}, redirects - 1).then(resolve, reject);
          return;
        }
        resolve(res);
      });
      req.on('timeout', () => req.destroy(Object.assign(new Error(`no answer within ${this.timeoutMs} ms`), { code: 'ETIMEDOUT' })));
      req.on('error', (e: NodeJS.ErrnoException) => reject(transportError(e, target.origin)));
      req.end();
    });
  }

  fail(what: string, r: Exchange, expected: string): MirrorError {
    const e = registryError(r.body);
    const detail = e ? `${e.code}${e.message ? `: ${e.message}` : ''}` : `HTTP ${r.status}`;
    if (r.status === 401 || r.status === 403)
      return new MirrorError(
        'mirror_auth_required',
        `${what}: the mirror refused the request (${detail}); this client pushes and pulls anonymously`,
        {
          http_status: r.status,
        },
      );
    if (r.status === 404)
      return new MirrorError('mirror_not_found', `${what}: not found (${detail})`, { http_status: 404, registry_code: e?.code });
    return new MirrorError('mirror_error', `${what}: expected ${expected}, the mirror answered ${detail}`, {
      http_status: r.status,
      registry_code: e?.code,
    });
  }

  uploadLocation(r: Exchange, from: URL): URL {
    const location = header(r.headers, 'location');
    if (!location) throw new MirrorError('mirror_error', `${from.pathname}: the mirror gave no upload location`);
    return new URL(location, from);
  }
}

export function nextPage(headers: IncomingHttpHeaders, from: URL): URL | null {
  const link = header(headers, 'link');
  const m = link ? /<([^>]+)>\s*;\s*rel="?next"?/.exec(link) : null;
  return m ? new URL(m[1]!, from) : null;
}
