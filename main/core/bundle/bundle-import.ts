// The isolated side: reads a bundle as a stream, checks the signed manifest against the trusted release keys
// before anything else, checks every entry against the digest and size the manifest lists, and pushes into the
// mirror in stages: each blob is committed only once its bytes hashed right, and the tags (what a pull sees)
// only after the whole bundle was read and found whole. A refused bundle leaves no new tag.
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import type { Ed25519 } from '../../wire/ed25519';
import { verifyDocument } from '../../wire/envelope';
import { MirrorError } from '../mirror/mirror-errors';
import { MAX_MANIFEST_BYTES, sha256Digest, type OciClient } from '../mirror/oci-client';
import { BundleError } from './bundle-errors';
import type { ImportProgress, ImportResult } from '../../contract/mirror';

/** The test of an import follows its progress by this name. */
export type { ImportProgress };
import { BLOB_PREFIX, BUNDLE_MANIFEST, BundleContents, MAX_BUNDLE_MANIFEST_BYTES, OCI_INDEX_FILE, OCI_LAYOUT_FILE } from './bundle-format';

export interface ImportOptions {
  file: string;
  client: OciClient;
  /** key_id → public key of the trusted release keys. */
  trustedKeys: ReadonlyMap<string, Uint8Array>;
  impl: Ed25519;
  chunkSize?: number;
  onProgress?: (p: ImportProgress) => void;
  /** Called once the signature and manifest are accepted, before the first push. */
  onVerified?: (v: { bundle_id: string; key_id: string; contents: BundleContents }) => void;
  /** What this manager lets a signed bundle tag: throws to refuse it before anything is pushed. */
  admit?: (contents: BundleContents, client: OciClient) => Promise<void>;
}

/** A tar entry (a streamx Readable) as the byte stream it is. */
const bytesOf = (entry: unknown): AsyncIterable<Uint8Array> => entry as AsyncIterable<Uint8Array>;

async function readAll(stream: AsyncIterable<Uint8Array>, limit: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of stream) {
    size += c.length;
    if (size > limit) throw new BundleError('bundle_malformed', `${what} is larger than ${limit} bytes`);
    chunks.push(Buffer.from(c));
  }
  return Buffer.concat(chunks);
}

/** A tar-stream failure as a bundle code: an early end is a truncated bundle, anything else not a bundle. */
function tarError(error: unknown): BundleError {
  const message = (error as Error)?.message ?? String(error);
  if (/unexpected end/i.test(message)) return new BundleError('bundle_truncated', `the bundle ends in the middle of an entry (${message})`);
  return new BundleError('bundle_malformed', `the file is not a readable tar: ${message}`);
}

export async function importBundle(opts: ImportOptions): Promise<ImportResult> {
  const total = statSync(opts.file).size;
  const progress: ImportProgress = {
    phase: 'verifying',
    bytes_done: 0,
    bytes_total: total,
    blobs_done: 0,
    blobs_total: 0,
    tags_done: 0,
    tags_total: 0,
  };
  let lastReport = 0;
  const report = (force = false): void => {
    const now = performance.now();
    if (force || now - lastReport >= 100) {
      lastReport = now;
      opts.onProgress?.({ ...progress });
    }
  };
  report(true);

  const extract = tar.extract();
  const counter = new Transform({
    transform(chunk: Buffer, _e, cb) {
      progress.bytes_done += chunk.length;
      report();
      cb(null, chunk);
    },
  });
  const feeding = pipeline(createReadStream(opts.file, { highWaterMark: 1 << 20 }), counter, extract);
  feeding.catch(() => undefined);

  let contents: BundleContents | null = null;
  let keyId = '';
  const sizes = new Map<string, number>();
  const manifestDigests = new Set<string>();
  const users = new Map<string, string[]>();
  const seen = new Set<string>();
  const manifests = new Map<string, Buffer>();
  const unmounted: { digest: string; repository: string; from: string }[] = [];
  let uploaded = 0;
  let present = 0;
  let layoutSeen = 0;

  try {
    for await (const entry of extract) {
      const { name, type, size } = entry.header;
      if (!contents) {
        if (name !== BUNDLE_MANIFEST || type !== 'file')
          throw new BundleError('bundle_malformed', `the bundle must open with ${BUNDLE_MANIFEST}, not ${JSON.stringify(name)}`);
        const text = (await readAll(bytesOf(entry), MAX_BUNDLE_MANIFEST_BYTES, BUNDLE_MANIFEST)).toString('utf8');
        const verdict = verifyDocument(text, { impl: opts.impl, trustedKeys: opts.trustedKeys, expectedType: 'bundle' });
        if (!verdict.ok) {
          const why =
            verdict.code === 'key_unknown' && opts.trustedKeys.size === 0
              ? 'no release key is trusted yet (navin-manager release-key trust --public-key release.pem)'
              : `${verdict.code}: ${verdict.message}`;
          throw new BundleError('bundle_signature_invalid', `the bundle's signed manifest is not accepted: ${why}`, {
            verify_code: verdict.code,
          });
        }
        const { type: _t, v: _v, key_id, ...rest } = verdict.payload as Record<string, unknown>;
        const parsed = BundleContents.safeParse(rest);
        if (!parsed.success)
          throw new BundleError(
            'bundle_malformed',
            `the signed manifest is not a bundle manifest: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
          );
        contents = parsed.data;
        keyId = key_id as string;
        for (const b of contents.blobs) sizes.set(b.digest, b.size);
        for (const item of contents.items) {
          manifestDigests.add(item.digest);
          for (const m of item.manifests) manifestDigests.add(m.digest);
          for (const b of item.blobs) {
            const list = users.get(b) ?? [];
            if (!list.includes(item.repository)) list.push(item.repository);
            users.set(b, list);
          }
        }
        for (const d of [...manifestDigests, ...users.keys()])
          if (!sizes.has(d)) throw new BundleError('bundle_malformed', `the signed manifest refers to ${d} but lists no such blob`);
        progress.blobs_total = contents.blobs.length;
        progress.tags_total = contents.items.length;
        // Nothing is read further if the mirror cannot take it.
        await opts.client.ping();
        await opts.admit?.(contents, opts.client);
        opts.onVerified?.({ bundle_id: contents.bundle_id, key_id: keyId, contents });
        progress.phase = 'uploading';
        report(true);
        continue;
      }

      if (type === 'directory' && (name === 'blobs/' || name === BLOB_PREFIX)) {
        entry.resume();
        continue;
      }
      if (type !== 'file') throw new BundleError('bundle_malformed', `unexpected ${type} entry ${JSON.stringify(name)}`);
      if (name === OCI_LAYOUT_FILE || name === OCI_INDEX_FILE) {
        const body = await readAll(bytesOf(entry), 1 << 20, name);
        const expected = name === OCI_LAYOUT_FILE ? contents.layout.oci_layout : contents.layout.index_json;
        if (sha256Digest(body) !== expected)
          throw new BundleError('digest_mismatch', `${name} hashes to ${sha256Digest(body)}, the signed manifest says ${expected}`, {
            entry: name,
          });
        layoutSeen++;
        continue;
      }
      const m = /^blobs\/sha256\/([a-f0-9]{64})$/.exec(name);
      const digest = m ? `sha256:${m[1]}` : null;
      if (!digest || !sizes.has(digest))
        throw new BundleError('bundle_malformed', `the entry ${JSON.stringify(name)} is not listed in the signed manifest`);
      if (seen.has(digest)) throw new BundleError('bundle_malformed', `the entry ${name} appears twice`);
      if (size !== sizes.get(digest))
        throw new BundleError('digest_mismatch', `${name} is ${size} bytes, the signed manifest says ${sizes.get(digest)}`, {
          entry: name,
          expected: digest,
        });
      seen.add(digest);

      if (manifestDigests.has(digest)) {
        const body = await readAll(bytesOf(entry), MAX_MANIFEST_BYTES, name);
        if (sha256Digest(body) !== digest)
          throw new BundleError('digest_mismatch', `${name} hashes to ${sha256Digest(body)}, not ${digest}`, {
            entry: name,
            expected: digest,
          });
        manifests.set(digest, body);
      } else {
        const repositories = users.get(digest) ?? [];
        if (repositories.length === 0) {
          // Listed but used by no tag: checked, not pushed.
          const hash = createHash('sha256');
          for await (const c of bytesOf(entry)) hash.update(c);
          if (`sha256:${hash.digest('hex')}` !== digest)
            throw new BundleError('digest_mismatch', `${name} does not hash to ${digest}`, { entry: name, expected: digest });
        } else {
          try {
            const r = await opts.client.pushBlob(repositories[0]!, { digest, size }, bytesOf(entry), { chunkSize: opts.chunkSize });
            if (r.uploaded) uploaded++;
            else present++;
          } catch (error) {
            if (error instanceof MirrorError && error.code === 'digest_mismatch')
              throw new BundleError('digest_mismatch', `${name} is not the blob the signed manifest lists: ${error.message}`, {
                entry: name,
                expected: digest,
              });
            throw error;
          }
          for (const other of repositories.slice(1))
            if (!(await opts.client.mountBlob(other, digest, repositories[0]!)))
              unmounted.push({ digest, repository: other, from: repositories[0]! });
        }
      }
      progress.blobs_done++;
      report();
    }
  } catch (error) {
    extract.destroy();
    await feeding.catch(() => undefined);
    throw error instanceof BundleError || error instanceof MirrorError ? error : tarError(error);
  }
  try {
    await feeding;
  } catch (error) {
    throw tarError(error);
  }

  if (!contents)
    throw new BundleError('bundle_truncated', `the file holds no ${BUNDLE_MANIFEST}: it is empty or cut before its first entry`);
  const missing = contents.blobs.filter((b) => !seen.has(b.digest));
  if (missing.length > 0 || layoutSeen < 2)
    throw new BundleError(
      'bundle_truncated',
      `the bundle ends before ${missing.length} of its ${contents.blobs.length} blobs${layoutSeen < 2 ? ' and its OCI layout files' : ''}`,
      {
        missing: missing.slice(0, 20).map((b) => b.digest),
      },
    );
  // A registry that refused a cross-repository mount gets the blob again, read from the bundle a second time.
  if (unmounted.length > 0) await pushAgain(opts, unmounted);

  progress.phase = 'tagging';
  report(true);
  const items: ImportResult['items'] = [];
  for (const item of contents.items) {
    for (const m of item.manifests) await opts.client.putManifest(item.repository, m.digest, manifests.get(m.digest)!, m.media_type);
    const digest = await opts.client.putManifest(item.repository, item.tag, manifests.get(item.digest)!, item.media_type);
    items.push({
      kind: item.kind,
      key: item.key,
      repository: item.repository,
      tag: item.tag,
      digest,
      reference: opts.client.reference(item.repository, digest),
    });
    progress.tags_done++;
    report();
  }
  progress.phase = 'done';
  report(true);
  return {
    bundle_id: contents.bundle_id,
    key_id: keyId,
    created_at: contents.created_at,
    bytes: total,
    blobs_uploaded: uploaded,
    blobs_present: present,
    items,
    not_included: contents.not_included,
  };
}

/**
 * Reads the bundle again for the blobs a registry would not mount, streaming each entry into the registry as
 * the first import did (a blob is as large as a binary or an image layer: never held whole in memory). A blob
 * wanted in several repositories is pushed to one of them per pass over the tar.
 */
async function pushAgain(opts: ImportOptions, wanted: { digest: string; repository: string }[]): Promise<void> {
  let pending = [...wanted];
  while (pending.length > 0) {
    const pass = new Map<string, string>();
    const later: typeof pending = [];
    for (const w of pending)
      if (pass.has(w.digest)) later.push(w);
      else pass.set(w.digest, w.repository);
    const extract = tar.extract();
    const feeding = pipeline(createReadStream(opts.file, { highWaterMark: 1 << 20 }), extract);
    feeding.catch(() => undefined);
    try {
      for await (const entry of extract) {
        const m = /^blobs\/sha256\/([a-f0-9]{64})$/.exec(entry.header.name);
        const digest = m ? `sha256:${m[1]}` : '';
        const repository = pass.get(digest);
        if (!repository) {
          entry.resume();
          continue;
        }
        await opts.client.pushBlob(repository, { digest, size: entry.header.size ?? 0 }, bytesOf(entry), {
          chunkSize: opts.chunkSize,
        });
      }
    } catch (error) {
      extract.destroy();
      await feeding.catch(() => undefined);
      throw error instanceof MirrorError ? error : tarError(error);
    }
    await feeding.catch((e) => {
      throw tarError(e);
    });
    pending = later;
  }
}
