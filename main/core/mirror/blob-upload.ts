// Pushing a blob: verified as it is read, sent in one PUT or as ordered PATCHes, the session cancelled on any failure.
import { createHash } from 'node:crypto';
import { MirrorError } from './mirror-errors';
import { isDigest } from './oci-digests';
import { header, type OciTransport } from './oci-transport';

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

/** The blob's size when the repository holds it, else null. */
export async function blobSize(http: OciTransport, repository: string, digest: string): Promise<number | null> {
  const path = `/v2/${http.repositoryPath(repository)}/blobs/${digest}`;
  const r = await http.exchange('HEAD', http.url(path));
  if (r.status === 404) return null;
  if (r.status !== 200 && r.status !== 307) throw http.fail(`HEAD ${path}`, r, '200 or 404');
  return Number(header(r.headers, 'content-length') ?? NaN);
}

/**
 * Uploads a blob from bytes or a stream, checking as it reads that they are exactly `expected`: a mismatch
 * cancels the upload session before anything is committed and throws `digest_mismatch`. Blobs larger than
 * the chunk size go up as ordered PATCHes with Content-Range, then a PUT with the digest; others in one PUT.
 */
export async function pushBlob(
  http: OciTransport,
  repository: string,
  expected: { digest: string; size: number },
  source: BlobSource,
  opts: PushBlobOptions = {},
): Promise<PushBlobResult> {
  if (!isDigest(expected.digest)) throw new MirrorError('mirror_error', `not a sha256 digest: ${expected.digest}`);
  const what = `blob ${expected.digest} of ${repository}`;
  const stream: AsyncIterable<Uint8Array> | Iterable<Uint8Array> = Buffer.isBuffer(source) ? [source] : source;
  const chunkSize = Math.max(1, opts.chunkSize ?? DEFAULT_CHUNK_SIZE);
  if (opts.skipExisting !== false && (await blobSize(http, repository, expected.digest)) === expected.size) {
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

  const start = http.url(`/v2/${http.repositoryPath(repository)}/blobs/uploads/`);
  const begun = await http.exchange('POST', start, { 'Content-Length': 0 });
  if (begun.status !== 202) throw http.fail(`POST ${start.pathname}`, begun, '202');
  let location = http.uploadLocation(begun, start);
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
    const r = await http.exchange(
      'PATCH',
      location,
      {
        'Content-Type': 'application/octet-stream',
        'Content-Range': `${offset}-${end}`,
        'Content-Length': body.length,
      },
      body,
    );
    if (r.status !== 202) throw http.fail(`PATCH upload of ${what}`, r, '202');
    location = http.uploadLocation(r, location);
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
    const done = await http.exchange('PUT', finish, headers, last);
    if (done.status !== 201) throw http.fail(`PUT upload of ${what}`, done, '201');
    const stored = header(done.headers, 'docker-content-digest');
    if (stored && stored !== expected.digest)
      throw new MirrorError('digest_mismatch', `${what}: the mirror stored it as ${stored}`, {
        expected: expected.digest,
        actual: stored,
      });
    return { digest: expected.digest, size: expected.size, uploaded: true, chunks: chunks + (last ? 1 : 0) };
  } catch (error) {
    // Cancel the session so the registry commits nothing of it; the original error is what matters.
    await http.exchange('DELETE', location).catch(() => undefined);
    if (!Buffer.isBuffer(source)) (source as { destroy?: () => void }).destroy?.();
    throw error;
  }
}
