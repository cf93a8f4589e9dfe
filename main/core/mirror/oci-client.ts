// A client of the OCI distribution API (v2) for the internal mirror: blobs (monolithic and chunked upload,
// streamed and verified download), manifests, tags and the repository list. Every byte read is checked
// against its digest before it is trusted; a mismatch is `digest_mismatch`, never a silent success.
import { isTag } from '../catalog/mirror-keys';
import { createWriteStream, rmSync } from 'node:fs';
import { moveIntoPlace } from '../fsutil/atomic-write';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import { MirrorError, transportError } from './mirror-errors';
import { MANIFEST_TYPES } from './media-types';
import { DigestVerifier, isDigest, sha256Digest } from './oci-digests';
import { header, MAX_MANIFEST_BYTES, nextPage, OciTransport, type MirrorEndpoint, type OciClientOptions } from './oci-transport';
import { blobSize, pushBlob, type BlobSource, type PushBlobOptions, type PushBlobResult } from './blob-upload';

export { isDigest, sha256Digest } from './oci-digests';
export { MAX_MANIFEST_BYTES, type MirrorEndpoint, type OciClientOptions } from './oci-transport';
export { DEFAULT_CHUNK_SIZE, type BlobSource, type PushBlobOptions, type PushBlobResult } from './blob-upload';

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

export class OciClient {
  private readonly http: OciTransport;

  constructor(
    readonly endpoint: MirrorEndpoint,
    opts: OciClientOptions = {},
  ) {
    this.http = new OciTransport(endpoint, opts);
  }

  /** host[:port] of the mirror, as image references name it. */
  get host(): string {
    return this.http.host;
  }

  /** The repository as the mirror names it (under the URL's path prefix). */
  repositoryPath(repository: string): string {
    return this.http.repositoryPath(repository);
  }

  /** `<host>/<prefix>/<repository>@<digest>`: how a runtime pulls it. */
  reference(repository: string, digestOrTag: string): string {
    return `${this.host}/${this.repositoryPath(repository)}${isDigest(digestOrTag) ? '@' : ':'}${digestOrTag}`;
  }

  close(): void {
    this.http.close();
  }

  /** GET /v2/: the mirror speaks the distribution API and lets us in. */
  async ping(): Promise<{ api_version: string | null }> {
    const r = await this.http.exchange('GET', this.http.url('/v2/'));
    if (r.status !== 200) throw this.http.fail('GET /v2/', r, '200');
    return { api_version: header(r.headers, 'docker-distribution-api-version') };
  }

  // ---- blobs ----

  /** The blob's size when the repository holds it, else null. */
  async blobSize(repository: string, digest: string): Promise<number | null> {
    return blobSize(this.http, repository, digest);
  }

  /** Uploads a blob, verified as it is read (see pushBlob). */
  pushBlob(
    repository: string,
    expected: { digest: string; size: number },
    source: BlobSource,
    opts: PushBlobOptions = {},
  ): Promise<PushBlobResult> {
    return pushBlob(this.http, repository, expected, source, opts);
  }

  /** Links a blob the mirror holds in `from` into `repository` without sending it; false when the mirror declines. */
  async mountBlob(repository: string, digest: string, from: string): Promise<boolean> {
    if ((await this.blobSize(repository, digest)) !== null) return true;
    const target = this.http.url(`/v2/${this.repositoryPath(repository)}/blobs/uploads/`);
    target.searchParams.set('mount', digest);
    target.searchParams.set('from', this.repositoryPath(from));
    const r = await this.http.exchange('POST', target, { 'Content-Length': 0 });
    if (r.status === 201) return true;
    if (r.status === 202) {
      await this.http.exchange('DELETE', this.http.uploadLocation(r, target)).catch(() => undefined);
      return false;
    }
    throw this.http.fail(`POST ${target.pathname}?mount`, r, '201 or 202');
  }

  /**
   * The blob as a stream that fails with `digest_mismatch` at its end when the bytes are not `digest`: a
   * consumer must treat what it read as untrusted until the stream ends without error.
   */
  async openBlob(repository: string, digest: string, expectedSize?: number): Promise<Readable> {
    if (!isDigest(digest)) throw new MirrorError('mirror_error', `not a sha256 digest: ${digest}`);
    const path = `/v2/${this.repositoryPath(repository)}/blobs/${digest}`;
    const res = await this.http.open(this.http.url(path));
    if (res.statusCode !== 200) {
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      throw this.http.fail(`GET ${path}`, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }, '200');
    }
    const verifier = new DigestVerifier(digest, expectedSize ?? null, `blob ${digest} of ${repository}`);
    res.on('error', (e: NodeJS.ErrnoException) => verifier.destroy(transportError(e, this.http.base.origin)));
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
      moveIntoPlace(tmp, file);
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
    const r = await this.http.exchange('PUT', this.http.url(path), { 'Content-Type': mediaType }, body);
    if (r.status !== 201) throw this.http.fail(`PUT ${path}`, r, '201');
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
    const r = await this.http.exchange('GET', this.http.url(path), { Accept: MANIFEST_TYPES.join(', ') });
    if (r.status !== 200) throw this.http.fail(`GET ${path}`, r, '200');
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
    const r = await this.http.exchange('HEAD', this.http.url(path), { Accept: MANIFEST_TYPES.join(', ') });
    if (r.status === 404) return null;
    if (r.status !== 200) throw this.http.fail(`HEAD ${path}`, r, '200 or 404');
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
    let next: URL | null = this.http.url(`/v2/${this.repositoryPath(repository)}/tags/list?n=1000`);
    while (next) {
      const r = await this.http.exchange('GET', next);
      if (r.status === 404) return out;
      if (r.status !== 200) throw this.http.fail(`GET ${next.pathname}`, r, '200');
      const tags = (JSON.parse(r.body.toString('utf8')) as { tags?: string[] | null }).tags ?? [];
      out.push(...tags);
      next = nextPage(r.headers, next);
    }
    return out;
  }

  /** Every repository of the mirror (GET /v2/_catalog, all pages), under the URL's prefix and without it. */
  async repositories(): Promise<string[]> {
    const out: string[] = [];
    let next: URL | null = this.http.url('/v2/_catalog?n=1000');
    while (next) {
      const r = await this.http.exchange('GET', next);
      if (r.status !== 200) throw this.http.fail(`GET ${next.pathname}`, r, '200');
      out.push(...((JSON.parse(r.body.toString('utf8')) as { repositories?: string[] | null }).repositories ?? []));
      next = nextPage(r.headers, next);
    }
    if (!this.http.prefix) return out;
    return out.filter((r) => r.startsWith(`${this.http.prefix}/`)).map((r) => r.slice(this.http.prefix.length + 1));
  }
}

function mediaTypeOf(body: Buffer): string {
  try {
    const t = (JSON.parse(body.toString('utf8')) as { mediaType?: unknown }).mediaType;
    return typeof t === 'string' ? t : 'application/octet-stream';
  } catch {
    return 'application/octet-stream';
  }
}
