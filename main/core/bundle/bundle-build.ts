// The connected side: packs every artifact the catalog can carry (each file read from its declared Debian
// source and re-hashed against the catalog's pin) and the given images into one signed offline bundle. The
// tar is written to a temp file and renamed only when whole; a source that changed under us aborts the build.
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, rmSync, statSync } from 'node:fs';
import { moveIntoPlace } from '../fsutil/atomic-write';
import { basename, dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import type { Signer } from '../../wire/envelope';
import { signDocument } from '../../wire/envelope';
import type { Catalog } from '../catalog/catalog';
import { artifactContent } from '../mirror/artifact-manifest';
import { ANNOTATION, OCI_INDEX } from '../mirror/media-types';
import { sha256Digest } from '../mirror/oci-client';
import { BundleError } from './bundle-errors';
import {
  BLOB_PREFIX,
  BUNDLE_FORMAT,
  BUNDLE_MANIFEST,
  blobEntry,
  OCI_INDEX_FILE,
  OCI_LAYOUT_FILE,
  type BundleContents,
  type BundleItem,
} from './bundle-format';
import { debianPackageFile, defaultPackagesDir, type PackageFetchOptions } from './debian-packages';
import { hashFile, readImageLayout } from './image-layout';

export interface BuildProgress {
  phase: 'hashing' | 'writing';
  bytes_done: number;
  bytes_total: number;
  current: string;
}

export interface BuildOptions {
  catalog: Catalog;
  out: string;
  signer: Signer;
  builderVersion: string;
  architectures?: string[];
  /** Only these services (each must be bundleable); default: every service the catalog can carry. */
  services?: string[];
  /** OCI image layout folders to carry (the agent image). */
  images?: string[];
  now?: Date;
  /** The installed version of a Debian package, or null; default dpkg-query. */
  packageVersion?: (pkg: string) => string | null;
  /** Where the .deb files of package artifacts are taken from (downloaded there when missing); default a cache folder. */
  packages?: PackageFetchOptions;
  onProgress?: (p: BuildProgress) => void;
}

export interface BuildResult {
  file: string;
  bundle_id: string;
  key_id: string;
  sha256: string;
  bytes: number;
  items: { kind: string; key: string; repository: string; tag: string; digest: string }[];
  not_included: BundleContents['not_included'];
}

export function dpkgVersion(pkg: string): string | null {
  try {
    return (
      execFileSync('dpkg-query', ['-W', '-f=${Version}', pkg], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null
    );
  } catch {
    return null;
  }
}

interface BlobSource {
  digest: string;
  size: number;
  body?: Buffer;
  path?: string;
}

const EPOCH = new Date(0);

export async function buildBundle(opts: BuildOptions): Promise<BuildResult> {
  const architectures = opts.architectures ?? ['amd64'];
  const packageVersion = opts.packageVersion ?? dpkgVersion;
  const wanted = opts.services ? new Set(opts.services) : null;
  for (const s of wanted ?? [])
    if (!opts.catalog.service(s)) throw new BundleError('artifact_unavailable', `${s} is not a service of the catalog`);

  const items: BundleItem[] = [];
  const notIncluded: BundleContents['not_included'] = [];
  const blobs = new Map<string, BlobSource>();
  const hashed = new Map<string, Promise<string>>();
  const hashOnce = (path: string): Promise<string> => {
    let p = hashed.get(path);
    if (!p) hashed.set(path, (p = hashFile(path)));
    return p;
  };
  const addBlob = (b: BlobSource): void => {
    if (!blobs.has(b.digest)) blobs.set(b.digest, b);
  };

  for (const desc of opts.catalog.services) {
    if (wanted && !wanted.has(desc.service)) continue;
    for (const version of desc.versions) {
      const artifacts = opts.catalog.artifacts(desc.service, version.version);
      const problems = architectures
        .map((a) => ({ a, r: opts.catalog.bundleable(desc.service, version.version, a) }))
        .filter((x) => !x.r.ok);
      if (problems.length > 0) {
        if (wanted)
          throw new BundleError(
            'artifact_unavailable',
            `${desc.service} ${version.version} cannot be bundled: ${problems.map((p) => (p.r.ok ? '' : p.r.reason)).join('; ')}`,
          );
        for (const a of artifacts)
          for (const arch of architectures) {
            const p = a.platforms.find((x) => x.architecture === arch);
            notIncluded.push({
              key: a.key,
              architecture: arch,
              reason: !p ? `no ${arch} build` : p.available ? 'another artifact of this version is unavailable' : p.reason,
            });
          }
        continue;
      }
      for (const a of artifacts) {
        const platforms = [];
        const files: BundleItem['files'] = [];
        for (const arch of architectures) {
          const p = a.platforms.find((x) => x.architecture === arch);
          if (!p || !p.available) throw new Error('unreachable: checked bundleable');
          const src = p.source.debian;
          // A file from inside an installed package is that package's, at its version; a .deb is only its bytes.
          const path =
            src.path ?? (await debianPackageFile(src.package, src.version, arch, opts.packages ?? { dir: defaultPackagesDir() }));
          const installed = src.path ? packageVersion(src.package) : src.version;
          if (installed !== src.version)
            throw new BundleError(
              'artifact_source_mismatch',
              `${a.key} (${arch}) comes from the Debian package ${src.package} ${src.version}, but this machine has ${installed ? `${src.package} ${installed}` : `no ${src.package}`}`,
              { key: a.key, package: src.package, expected: src.version, found: installed },
            );
          let size: number;
          try {
            size = statSync(path).size;
          } catch (error) {
            throw new BundleError('artifact_source_mismatch', `${a.key} (${arch}): ${path} cannot be read: ${(error as Error).message}`);
          }
          opts.onProgress?.({ phase: 'hashing', bytes_done: 0, bytes_total: size, current: path });
          const digest = await hashOnce(path);
          if (digest !== p.digest || size !== p.size)
            throw new BundleError(
              'digest_mismatch',
              `${path} hashes to ${digest} (${size} bytes); the catalog pins ${a.key} (${arch}) at ${p.digest} (${p.size} bytes)`,
              {
                key: a.key,
                expected: p.digest,
                actual: digest,
              },
            );
          platforms.push({ architecture: arch, os: 'linux', file: { name: a.name, digest, size, mode: a.mode } });
          files.push({ architecture: arch, name: a.name, digest, size, source: p.source });
          addBlob({ digest, size, path });
        }
        const content = artifactContent(a.mirrorKey, a.upstream, platforms);
        for (const b of content.blobs) if (b.body) addBlob({ digest: b.digest, size: b.size, body: b.body });
        for (const m of content.manifests) addBlob({ digest: m.digest, size: m.size, body: m.body });
        addBlob({ digest: content.index.digest, size: content.index.size, body: content.index.body });
        items.push({
          kind: 'artifact',
          key: a.key,
          repository: a.repository,
          tag: a.tag,
          digest: content.index.digest,
          media_type: content.index.mediaType,
          size: content.index.size,
          manifests: content.manifests.map((m) => ({ digest: m.digest, media_type: m.mediaType, size: m.size })),
          blobs: content.blobs.map((b) => b.digest),
          files,
        });
      }
    }
  }

  for (const dir of opts.images ?? []) {
    for (const image of await readImageLayout(dir)) {
      if (items.some((i) => i.repository === image.item.repository && i.tag === image.item.tag))
        throw new BundleError('image_layout_invalid', `${image.item.repository}:${image.item.tag} is given twice`);
      for (const b of image.blobs) addBlob({ digest: b.digest, size: b.size, path: b.path });
      for (const [digest, body] of image.manifests) addBlob({ digest, size: body.length, body });
      items.push(image.item);
    }
  }
  if (items.length === 0)
    throw new BundleError(
      'artifact_unavailable',
      'nothing to bundle: no service of the catalog can be carried for these architectures, and no image was given',
    );

  const ociLayout = Buffer.from('{"imageLayoutVersion":"1.0.0"}');
  const ociIndex = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_INDEX,
      manifests: items.map((i) => ({
        mediaType: i.media_type,
        digest: i.digest,
        size: i.size,
        annotations: { [ANNOTATION.refName]: `${i.repository}:${i.tag}` },
      })),
    }),
  );
  // Large blobs first in the order the items need them, manifests after: the importer streams the first and keeps the others.
  const ordered = [...blobs.values()].sort((a, b) => Number(!!a.body) - Number(!!b.body));
  const contents: BundleContents = {
    format: BUNDLE_FORMAT,
    bundle_id: randomUUID(),
    created_at: (opts.now ?? new Date()).toISOString(),
    builder: { name: 'navin-manager', version: opts.builderVersion },
    catalog: { digest: opts.catalog.digest, files: opts.catalog.sources },
    architectures,
    layout: { oci_layout: sha256Digest(ociLayout), index_json: sha256Digest(ociIndex) },
    blobs: ordered.map((b) => ({ digest: b.digest, size: b.size })),
    items,
    not_included: notIncluded,
  };
  const signed = signDocument({ type: 'bundle', ...contents }, opts.signer);
  const manifest = Buffer.from(`${JSON.stringify(signed)}\n`);

  const total = manifest.length + ociLayout.length + ociIndex.length + ordered.reduce((n, b) => n + b.size, 0);
  const tmp = join(dirname(opts.out), `.${basename(opts.out)}.${randomUUID().slice(0, 8)}.partial`);
  const pack = tar.pack();
  const sink = createWriteStream(tmp, { flags: 'wx', mode: 0o644 });
  const written = pipeline(pack, sink);
  written.catch(() => undefined);
  let done = 0;
  const progress = (current: string): void => opts.onProgress?.({ phase: 'writing', bytes_done: done, bytes_total: total, current });
  const entry = (name: string, body: Buffer): Promise<void> =>
    new Promise((resolve, reject) =>
      pack.entry({ name, size: body.length, mode: 0o644, mtime: EPOCH, uid: 0, gid: 0 }, body, (err) => {
        if (err) return reject(err);
        done += body.length;
        progress(name);
        resolve();
      }),
    );
  try {
    await entry(BUNDLE_MANIFEST, manifest);
    await entry(OCI_LAYOUT_FILE, ociLayout);
    await entry(OCI_INDEX_FILE, ociIndex);
    pack.entry({ name: 'blobs/', type: 'directory', mode: 0o755, mtime: EPOCH });
    pack.entry({ name: BLOB_PREFIX, type: 'directory', mode: 0o755, mtime: EPOCH });
    for (const b of ordered) {
      if (b.body) {
        await entry(blobEntry(b.digest), b.body);
        continue;
      }
      // Read again and hashed again as it is packed: what goes into the tar is what was checked.
      const hash = createHash('sha256');
      const stream = pack.entry({ name: blobEntry(b.digest), size: b.size, mode: 0o644, mtime: EPOCH, uid: 0, gid: 0 });
      await pipeline(
        createReadStream(b.path!, { highWaterMark: 1 << 20 }),
        new Transform({
          transform(chunk: Buffer, _e, cb) {
            hash.update(chunk);
            done += chunk.length;
            cb(null, chunk);
          },
        }),
        stream,
      );
      progress(b.path!);
      const again = `sha256:${hash.digest('hex')}`;
      if (again !== b.digest)
        throw new BundleError('digest_mismatch', `${b.path} changed while the bundle was written (${again}, not ${b.digest})`);
    }
    pack.finalize();
    await written;
    moveIntoPlace(tmp, opts.out);
  } catch (error) {
    pack.destroy();
    await written.catch(() => undefined);
    rmSync(tmp, { force: true });
    throw error;
  }
  return {
    file: opts.out,
    bundle_id: contents.bundle_id,
    key_id: opts.signer.keyId,
    sha256: await hashFile(opts.out),
    bytes: statSync(opts.out).size,
    items: items.map((i) => ({ kind: i.kind, key: i.key, repository: i.repository, tag: i.tag, digest: i.digest })),
    not_included: notIncluded,
  };
}
