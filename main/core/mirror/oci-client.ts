// A client of the OCI distribution API (v2) for the internal mirror: blobs (monolithic and chunked upload,
// streamed and verified download), manifests, tags and the repository list. Every byte read is checked
// against its digest before it is trusted; a mismatch is `digest_mismatch`, never a silent success.
import { isRepositoryName, isTag } from '../catalog/mirror-keys';
import { createHash, type Hash } from 'node:crypto';
import { closeSync, createWriteStream, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { Agent, request, type RequestOptions } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import { MirrorError, transportError } from './mirror-errors';
import { MANIFEST_TYPES } from './media-types';

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

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  annotations?: Record<string, string>;
  platform?: { architecture: string; os: string; variant?: string };
}

export interface FetchedManifest {
  digest: string;
  mediaType: string;
  body: Buffer;
}

/** Bytes in memory, or any stream of them (node streams, tar entries). */
export type BlobSource = Buffer | AsyncIterable<Uint8Array>;

export interface PushBlobOptions {
  /** Bytes per PATCH of a chunked upload (default 32 MiB); a blob no larger than this goes up in one PUT. */
  chunkSize?: number;
  /** Skip the upload when the repository already holds the blob (the bytes are still read and checked). */
  skipExisting?: boolean;
  /** Called with each number of bytes read from the source. */
  onBytes?: (n: number) => void;
}

export interface PushBlobResult {
  digest: string;
  size: number;
  /** false when the repository already held it. */
  uploaded: boolean;
  /** Requests that carried bytes: 1 for a monolithic upload, the number of PATCHes for a chunked one. */
  chunks: number;
}

export const DEFAULT_CHUNK_SIZE = 32 << 20;
/** The OCI spec lets registries refuse manifests over 4 MiB; we read no more than that. */
export const MAX_MANIFEST_BYTES = 4 << 20;
const DIGEST = /^sha256:[a-f0-9]{64}$/;
/** The distribution spec's grammar for repository names and tags. */

export const sha256Digest = (data: Uint8Array): string => `sha256:${createHash('sha256').update(data).digest('hex')}`;
export const isDigest = (s: string): boolean => DIGEST.test(s);

interface Exchange {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const header = (h: IncomingHttpHeaders, name: string): string | null => {
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

/** A pass-through that hashes and counts, and fails at the end when the bytes are not the expected ones. */
class DigestVerifier extends Transform {
  private readonly hash: Hash = createHash('sha256');
  private bytes = 0;

  constructor(
    private readonly expected: string,
    private readonly expectedSize: number | null,
    private readonly what: string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    if (this.expectedSize !== null && this.bytes > this.expectedSize)
      return done(
        new MirrorError('digest_mismatch', `${this.what}: more than the ${this.expectedSize} bytes expected`, { expected: this.expected }),
      );
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    const actual = `sha256:${this.hash.digest('hex')}`;
    if (actual !== this.expected || (this.expectedSize !== null && this.bytes !== this.expectedSize))
      return done(
        new MirrorError('digest_mismatch', `${this.what}: the bytes read hash to ${actual} (${this.bytes} bytes), not ${this.expected}`, {
          expected: this.expected,
          actual,
          size: this.bytes,
        }),
      );
    done();
  }
}

export class OciClient {
  private readonly base: URL;
  private readonly prefix: string;
  private readonly agent: Agent;
  private readonly timeoutMs: number;
  private readonly userAgent: string;

  constructor(
    readonly endpoint: MirrorEndpoint,
    opts: OciClientOptions = {},
  ) {
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

  /** `<host>/<prefix>/<repository>@<digest>`: how a runtime pulls it. */
  reference(repository: string, digestOrTag: string): string {
    return `${this.host}/${this.repositoryPath(repository)}${isDigest(digestOrTag) ? '@' : ':'}${digestOrTag}`;
  }

  close(): void {
    this.agent.destroy();
  }

  private url(path: string): URL {
    return new URL(path, this.base.origin);
  }

  private options(method: string, headers: Record<string, string | number>): RequestOptions {
    return { method, agent: this.agent, timeout: this.timeoutMs, headers: { 'User-Agent': this.userAgent, ...headers } };
  }

  /** One request; the answer is read whole (at most `limit` bytes). */
  private exchange(
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
  private open(target: URL, headers: Record<string, string> = {}, redirects = 5): Promise<IncomingMessage> {
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

  private fail(what: string, r: Exchange, expected: string): MirrorError {
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

  /** GET /v2/: the mirror speaks the distribution API and lets us in. */
  async ping(): Promise<{ api_version: string | null }> {
    const r = await this.exchange('GET', this.url('/v2/'));
    if (r.status !== 200) throw this.fail('GET /v2/', r, '200');
    return { api_version: header(r.headers, 'docker-distribution-api-version') };
  }

  // ---- blobs ----

  /** The blob's size when the repository holds it, else null. */
  async blobSize(repository: string, digest: string): Promise<number | null> {
    const path = `/v2/${this.repositoryPath(repository)}/blobs/${digest}`;
    const r = await this.exchange('HEAD', this.url(path));
    if (r.status === 404) return null;
    if (r.status !== 200 && r.status !== 307) throw this.fail(`HEAD ${path}`, r, '200 or 404');
    return Number(header(r.headers, 'content-length') ?? NaN);
  }

  /**
   * Uploads a blob from bytes or a stream, checking as it reads that they are exactly `expected`: a mismatch
   * cancels the upload session before anything is committed and throws `digest_mismatch`. Blobs larger than
   * the chunk size go up as ordered PATCHes with Content-Range, then a PUT with the digest; others in one PUT.
   */
  async pushBlob(
    repository: string,
    expected: { digest: string; size: number },
    source: BlobSource,
    opts: PushBlobOptions = {},
  ): Promise<PushBlobResult> {
    if (!isDigest(expected.digest)) throw new MirrorError('mirror_error', `not a sha256 digest: ${expected.digest}`);
    const what = `blob ${expected.digest} of ${repository}`;
    const stream: AsyncIterable<Uint8Array> | Iterable<Uint8Array> = Buffer.isBuffer(source) ? [source] : source;
    const chunkSize = Math.max(1, opts.chunkSize ?? DEFAULT_CHUNK_SIZE);
    if (opts.skipExisting !== false && (await this.blobSize(repository, expected.digest)) === expected.size) {
      // Held already: the source is still read whole and checked, so a bad copy is never taken as good.
      const hash = createHash('sha256');
      let bytes = 0;
      for await (const c of stream) {
        hash.update(c);
        bytes += c.length;
        opts.onBytes?.(c.length);
      }
      const actual = `sha256:${hash.digest('hex')}`;
      if (actual !== expected.digest || bytes !== expected.size)
        throw new MirrorError('digest_mismatch', `${what}: the bytes hash to ${actual} (${bytes} bytes), not ${expected.digest}`, {
          expected: expected.digest,
          actual,
          size: bytes,
        });
      return { digest: expected.digest, size: expected.size, uploaded: false, chunks: 0 };
    }

    const start = this.url(`/v2/${this.repositoryPath(repository)}/blobs/uploads/`);
    const begun = await this.exchange('POST', start, { 'Content-Length': 0 });
    if (begun.status !== 202) throw this.fail(`POST ${start.pathname}`, begun, '202');
    let location = this.uploadLocation(begun, start);
    const hash = createHash('sha256');
    let read = 0;
    let offset = 0;
    let chunks = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let inflight: Promise<void> | null = null;
    const monolithic = expected.size <= chunkSize;

    const patch = async (body: Buffer): Promise<void> => {
      const end = offset + body.length - 1;
      const r = await this.exchange(
        'PATCH',
        location,
        {
          'Content-Type': 'application/octet-stream',
          'Content-Range': `${offset}-${end}`,
          'Content-Length': body.length,
        },
        body,
      );
      if (r.status !== 202) throw this.fail(`PATCH upload of ${what}`, r, '202');
      location = this.uploadLocation(r, location);
      offset = end + 1;
      chunks++;
    };

    try {
      for await (const c of stream) {
        const chunk = Buffer.isBuffer(c) ? c : Buffer.from(c.buffer, c.byteOffset, c.byteLength);
        hash.update(chunk);
        read += chunk.length;
        opts.onBytes?.(chunk.length);
        if (read > expected.size)
          throw new MirrorError('digest_mismatch', `${what}: more than the ${expected.size} bytes expected`, { expected: expected.digest });
        pending.push(chunk);
        pendingBytes += chunk.length;
        // Exactly chunkSize bytes per PATCH (the last chunk goes with the PUT).
        while (!monolithic && pendingBytes > chunkSize) {
          const all = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
          const body = all.subarray(0, chunkSize);
          pending = [all.subarray(chunkSize)];
          pendingBytes -= chunkSize;
          // The previous PATCH gives the next location; reading and hashing the next chunk overlaps with it.
          if (inflight) await inflight;
          inflight = patch(body);
          // A failed PATCH must not go unobserved while the next chunk is read.
          inflight.catch(() => undefined);
        }
      }
      if (inflight) await inflight;
      const actual = `sha256:${hash.digest('hex')}`;
      if (actual !== expected.digest || read !== expected.size)
        throw new MirrorError(
          'digest_mismatch',
          `${what}: the bytes hash to ${actual} (${read} bytes), not ${expected.digest} (${expected.size} bytes)`,
          {
            expected: expected.digest,
            actual,
            size: read,
          },
        );
      const last = pendingBytes > 0 ? Buffer.concat(pending, pendingBytes) : undefined;
      const finish = new URL(location);
      finish.searchParams.set('digest', expected.digest);
      const headers: Record<string, string | number> = last ? { 'Content-Type': 'application/octet-stream' } : { 'Content-Length': 0 };
      if (last && !monolithic) headers['Content-Range'] = `${offset}-${offset + last.length - 1}`;
      const done = await this.exchange('PUT', finish, headers, last);
      if (done.status !== 201) throw this.fail(`PUT upload of ${what}`, done, '201');
      const stored = header(done.headers, 'docker-content-digest');
      if (stored && stored !== expected.digest)
        throw new MirrorError('digest_mismatch', `${what}: the mirror stored it as ${stored}`, {
          expected: expected.digest,
          actual: stored,
        });
      return { digest: expected.digest, size: expected.size, uploaded: true, chunks: chunks + (last ? 1 : 0) };
    } catch (error) {
      // Cancel the session so the registry commits nothing of it; the original error is what matters.
      await this.exchange('DELETE', location).catch(() => undefined);
      if (!Buffer.isBuffer(source)) (source as { destroy?: () => void }).destroy?.();
      throw error;
    }
  }

  /** Links a blob the mirror holds in `from` into `repository` without sending it; false when the mirror declines. */
  async mountBlob(repository: string, digest: string, from: string): Promise<boolean> {
    if ((await this.blobSize(repository, digest)) !== null) return true;
    const target = this.url(`/v2/${this.repositoryPath(repository)}/blobs/uploads/`);
    target.searchParams.set('mount', digest);
    target.searchParams.set('from', this.repositoryPath(from));
    const r = await this.exchange('POST', target, { 'Content-Length': 0 });
    if (r.status === 201) return true;
    if (r.status === 202) {
      await this.exchange('DELETE', this.uploadLocation(r, target)).catch(() => undefined);
      return false;
    }
    throw this.fail(`POST ${target.pathname}?mount`, r, '201 or 202');
  }

  private uploadLocation(r: Exchange, from: URL): URL {
    const location = header(r.headers, 'location');
    if (!location) throw new MirrorError('mirror_error', `${from.pathname}: the mirror gave no upload location`);
    return new URL(location, from);
  }

  /**
   * The blob as a stream that fails with `digest_mismatch` at its end when the bytes are not `digest`: a
   * consumer must treat what it read as untrusted until the stream ends without error.
   */
  async openBlob(repository: string, digest: string, expectedSize?: number): Promise<Readable> {
    if (!isDigest(digest)) throw new MirrorError('mirror_error', `not a sha256 digest: ${digest}`);
    const path = `/v2/${this.repositoryPath(repository)}/blobs/${digest}`;
    const res = await this.open(this.url(path));
    if (res.statusCode !== 200) {
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      throw this.fail(`GET ${path}`, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }, '200');
    }
    const verifier = new DigestVerifier(digest, expectedSize ?? null, `blob ${digest} of ${repository}`);
    res.on('error', (e: NodeJS.ErrnoException) => verifier.destroy(transportError(e, this.base.origin)));
    return res.pipe(verifier);
  }

  /** A small blob (a config) read whole and verified. */
  async readBlob(repository: string, digest: string, maxBytes = MAX_MANIFEST_BYTES): Promise<Buffer> {
    const stream = await this.openBlob(repository, digest);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of stream) {
      size += (c as Buffer).length;
      if (size > maxBytes) {
        stream.destroy();
        throw new MirrorError('mirror_error', `blob ${digest} is larger than ${maxBytes} bytes`);
      }
      chunks.push(c as Buffer);
    }
    return Buffer.concat(chunks);
  }

  /** Downloads a blob to `file` through a temp file renamed only once the digest matched. */
  async downloadBlob(
    repository: string,
    digest: string,
    file: string,
    expectedSize?: number,
    onBytes?: (n: number) => void,
  ): Promise<void> {
    const tmp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.part`);
    try {
      const stream = await this.openBlob(repository, digest, expectedSize);
      await pipeline(
        stream,
        async function* (chunks) {
          for await (const c of chunks) {
            onBytes?.((c as Buffer).length);
            yield c;
          }
        },
        createWriteStream(tmp, { flags: 'wx', mode: 0o600 }),
      );
      const fd = openSync(tmp, 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, file);
    } catch (error) {
      rmSync(tmp, { force: true });
      throw error;
    }
  }

  // ---- manifests ----

  /** Stores a manifest under a tag or its digest; returns its digest (checked against the mirror's). */
  async putManifest(repository: string, reference: string, body: Buffer, mediaType: string): Promise<string> {
    if (!isDigest(reference) && !isTag(reference)) throw new MirrorError('mirror_error', `not a tag or digest: ${reference}`);
    const digest = sha256Digest(body);
    if (isDigest(reference) && reference !== digest)
      throw new MirrorError('digest_mismatch', `the manifest hashes to ${digest}, not ${reference}`, {
        expected: reference,
        actual: digest,
      });
    const path = `/v2/${this.repositoryPath(repository)}/manifests/${reference}`;
    const r = await this.exchange('PUT', this.url(path), { 'Content-Type': mediaType }, body);
    if (r.status !== 201) throw this.fail(`PUT ${path}`, r, '201');
    const stored = header(r.headers, 'docker-content-digest');
    if (stored && stored !== digest)
      throw new MirrorError('digest_mismatch', `the mirror stored the manifest as ${stored}, not ${digest}`, {
        expected: digest,
        actual: stored,
      });
    return digest;
  }

  /** A manifest by tag or digest, its bytes checked against the digest asked for (or announced, for a tag). */
  async getManifest(repository: string, reference: string): Promise<FetchedManifest> {
    const path = `/v2/${this.repositoryPath(repository)}/manifests/${reference}`;
    const r = await this.exchange('GET', this.url(path), { Accept: MANIFEST_TYPES.join(', ') });
    if (r.status !== 200) throw this.fail(`GET ${path}`, r, '200');
    const digest = sha256Digest(r.body);
    const announced = header(r.headers, 'docker-content-digest');
    const expected = isDigest(reference) ? reference : announced;
    if (expected && expected !== digest)
      throw new MirrorError('digest_mismatch', `the manifest ${repository}:${reference} hashes to ${digest}, not ${expected}`, {
        expected,
        actual: digest,
      });
    const mediaType = header(r.headers, 'content-type') ?? mediaTypeOf(r.body);
    return { digest, mediaType, body: r.body };
  }

  /** The manifest's digest and type without its body, or null when the repository does not hold it. */
  async headManifest(
    repository: string,
    reference: string,
  ): Promise<{ digest: string | null; mediaType: string | null; size: number } | null> {
    const path = `/v2/${this.repositoryPath(repository)}/manifests/${reference}`;
    const r = await this.exchange('HEAD', this.url(path), { Accept: MANIFEST_TYPES.join(', ') });
    if (r.status === 404) return null;
    if (r.status !== 200) throw this.fail(`HEAD ${path}`, r, '200 or 404');
    const digest = header(r.headers, 'docker-content-digest');
    if (digest && isDigest(reference) && digest !== reference)
      throw new MirrorError('digest_mismatch', `the mirror answered ${digest} for ${repository}@${reference}`, {
        expected: reference,
        actual: digest,
      });
    return { digest, mediaType: header(r.headers, 'content-type'), size: Number(header(r.headers, 'content-length') ?? 0) };
  }

  // ---- listings ----

  /** Every tag of a repository (all pages); none when the repository does not exist. */
  async tags(repository: string): Promise<string[]> {
    const out: string[] = [];
    let next: URL | null = this.url(`/v2/${this.repositoryPath(repository)}/tags/list?n=1000`);
    while (next) {
      const r = await this.exchange('GET', next);
      if (r.status === 404) return out;
      if (r.status !== 200) throw this.fail(`GET ${next.pathname}`, r, '200');
      const tags = (JSON.parse(r.body.toString('utf8')) as { tags?: string[] | null }).tags ?? [];
      out.push(...tags);
      next = nextPage(r.headers, next);
    }
    return out;
  }

  /** Every repository of the mirror (GET /v2/_catalog, all pages), under the URL's prefix and without it. */
  async repositories(): Promise<string[]> {
    const out: string[] = [];
    let next: URL | null = this.url('/v2/_catalog?n=1000');
    while (next) {
      const r = await this.exchange('GET', next);
      if (r.status !== 200) throw this.fail(`GET ${next.pathname}`, r, '200');
      out.push(...((JSON.parse(r.body.toString('utf8')) as { repositories?: string[] | null }).repositories ?? []));
      next = nextPage(r.headers, next);
    }
    if (!this.prefix) return out;
    return out.filter((r) => r.startsWith(`${this.prefix}/`)).map((r) => r.slice(this.prefix.length + 1));
  }
}

function nextPage(headers: IncomingHttpHeaders, from: URL): URL | null {
  const link = header(headers, 'link');
  const m = link ? /<([^>]+)>\s*;\s*rel="?next"?/.exec(link) : null;
  return m ? new URL(m[1]!, from) : null;
}

function mediaTypeOf(body: Buffer): string {
  try {
    const t = (JSON.parse(body.toString('utf8')) as { mediaType?: unknown }).mediaType;
    return typeof t === 'string' ? t : 'application/octet-stream';
  } catch {
    return 'application/octet-stream';
  }
}
