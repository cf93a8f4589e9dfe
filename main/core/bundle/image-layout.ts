// Reads an OCI image layout folder (the agent image that `npm run build:agent-image` writes to out/agent-image/)
// as bundle items: every manifest and blob it references, each checked against its digest.
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ANNOTATION, isIndexType, OCI_IMAGE_CONFIG } from '../mirror/media-types';
import { isRepositoryName, isTag } from '../catalog/mirror-keys';
import { sha256Digest, type Descriptor } from '../mirror/oci-client';
import { REPOSITORY_ROOT } from '../catalog/mirror-keys';
import { BundleError } from './bundle-errors';
import type { BundleItem } from './bundle-format';

export interface LayoutBlob {
  digest: string;
  size: number;
  path: string;
}

export interface LayoutImage {
  item: Omit<BundleItem, 'files'> & { files: [] };
  /** Manifests and configs: small, kept in memory. */
  manifests: Map<string, Buffer>;
  /** Layers and configs, read from the layout when the tar is written. */
  blobs: LayoutBlob[];
}

const fail = (dir: string, why: string): never => {
  throw new BundleError('image_layout_invalid', `${dir} is not a valid OCI image layout: ${why}`);
};

export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const c of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(c as Buffer);
  return `sha256:${hash.digest('hex')}`;
}

/** Each image tagged in the layout's index.json (annotation org.opencontainers.image.ref.name), as one bundle item. */
export async function readImageLayout(dir: string): Promise<LayoutImage[]> {
  let layout: { imageLayoutVersion?: unknown };
  let index: { manifests?: Descriptor[] };
  try {
    layout = JSON.parse(readFileSync(join(dir, 'oci-layout'), 'utf8')) as typeof layout;
    index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as typeof index;
  } catch (error) {
    return fail(dir, (error as Error).message);
  }
  if (layout.imageLayoutVersion !== '1.0.0') fail(dir, 'oci-layout is not version 1.0.0');
  const blobPath = (digest: string): string => {
    if (!/^sha256:[a-f0-9]{64}$/.test(digest)) fail(dir, `${digest} is not a sha256 digest`);
    return join(dir, 'blobs/sha256', digest.slice(7));
  };
  const readManifest = (d: Descriptor): Buffer => {
    let body: Buffer;
    try {
      body = readFileSync(blobPath(d.digest));
    } catch {
      return fail(dir, `the blob ${d.digest} is missing`);
    }
    if (sha256Digest(body) !== d.digest || body.length !== d.size) fail(dir, `the blob ${d.digest} does not match its digest`);
    return body;
  };
  const images: LayoutImage[] = [];
  for (const top of index.manifests ?? []) {
    const tag = top.annotations?.[ANNOTATION.refName];
    if (!tag || !isTag(tag)) continue;
    const manifests = new Map<string, Buffer>();
    const blobs: LayoutBlob[] = [];
    const children: BundleItem['manifests'] = [];
    let title: string | null = null;
    const visit = async (d: Descriptor, isTop: boolean): Promise<void> => {
      const body = readManifest(d);
      manifests.set(d.digest, body);
      const json = JSON.parse(body.toString('utf8')) as { manifests?: Descriptor[]; config?: Descriptor; layers?: Descriptor[] };
      if (isIndexType(d.mediaType)) for (const m of json.manifests ?? []) await visit(m, false);
      else {
        if (!json.config) fail(dir, `${d.digest} has no config`);
        for (const b of [json.config!, ...(json.layers ?? [])]) {
          const path = blobPath(b.digest);
          let size: number;
          try {
            size = statSync(path).size;
          } catch {
            return fail(dir, `the blob ${b.digest} is missing`);
          }
          if (size !== b.size || (await hashFile(path)) !== b.digest) fail(dir, `the blob ${b.digest} does not match its digest`);
          if (!blobs.some((x) => x.digest === b.digest)) blobs.push({ digest: b.digest, size, path });
          if (b === json.config && b.mediaType === OCI_IMAGE_CONFIG) {
            const labels = (JSON.parse(readFileSync(path, 'utf8')) as { config?: { Labels?: Record<string, string> } }).config?.Labels;
            title ??= labels?.[ANNOTATION.title] ?? null;
          }
        }
      }
      if (!isTop) children.push({ digest: d.digest, media_type: d.mediaType, size: d.size });
    };
    await visit(top, true);
    const name = title ?? basename(dir);
    const repository = `${REPOSITORY_ROOT}/${name}`;
    if (!isRepositoryName(repository)) fail(dir, `${name} does not make a repository name`);
    images.push({
      item: {
        kind: 'image',
        key: `${name}@${tag}`,
        repository,
        tag,
        digest: top.digest,
        media_type: top.mediaType,
        size: top.size,
        manifests: children,
        blobs: blobs.map((b) => b.digest),
        files: [],
      },
      manifests,
      blobs,
    });
  }
  if (images.length === 0) fail(dir, 'index.json tags no image (annotation org.opencontainers.image.ref.name)');
  return images;
}
