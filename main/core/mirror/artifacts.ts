// File artifacts in the mirror: push the files of one catalog version (blobs, per-architecture manifests, then
// the index under the version's tag) and pull one back for an architecture, checked against the catalog's pin.
import { createReadStream, statSync } from 'node:fs';
import type { ResolvedArtifact } from '../catalog/catalog';
import { artifactContent, type ArtifactContent } from './artifact-manifest';
import { MirrorError } from './mirror-errors';
import { ANNOTATION, isIndexType, NAVIN_ARTIFACT_FILE } from './media-types';
import type { Descriptor, OciClient, PushBlobOptions } from './oci-client';

/** Pushes content whose large blobs come from `open(digest)`; the tag is written last, once everything it needs is there. */
export async function pushContent(
  client: OciClient,
  repository: string,
  tag: string,
  content: ArtifactContent,
  open: (digest: string) => NodeJS.ReadableStream | Buffer,
  opts: PushBlobOptions = {},
): Promise<{ digest: string; uploaded: number }> {
  let uploaded = 0;
  for (const b of content.blobs) {
    const source = b.body ?? open(b.digest);
    const r = await client.pushBlob(repository, b, source as never, opts);
    if (r.uploaded) uploaded++;
  }
  for (const m of content.manifests) await client.putManifest(repository, m.digest, m.body, m.mediaType);
  const digest = await client.putManifest(repository, tag, content.index.body, content.index.mediaType);
  return { digest, uploaded };
}

/** Pushes one artifact of the catalog from local files, one per architecture, each checked against its pin. */
export async function pushArtifactFiles(
  client: OciClient,
  artifact: ResolvedArtifact,
  files: { architecture: string; path: string }[],
  opts: PushBlobOptions = {},
): Promise<{ digest: string; uploaded: number }> {
  const platforms = files.map((f) => {
    const pin = artifact.platforms.find((p) => p.architecture === f.architecture);
    if (!pin || !pin.available)
      throw new MirrorError('mirror_error', `${artifact.key} has no available ${f.architecture} build in the catalog`);
    const size = statSync(f.path).size;
    if (size !== pin.size)
      throw new MirrorError(
        'digest_mismatch',
        `${f.path} is ${size} bytes, the catalog pins ${artifact.key} (${f.architecture}) at ${pin.size}`,
        {
          expected: pin.digest,
        },
      );
    return {
      architecture: f.architecture,
      os: 'linux',
      file: { name: artifact.name, digest: pin.digest, size: pin.size, mode: artifact.mode },
      path: f.path,
    };
  });
  const content = artifactContent(artifact.mirrorKey, artifact.upstream, platforms);
  const byDigest = new Map(platforms.map((p) => [p.file.digest, p.path]));
  return pushContent(
    client,
    artifact.repository,
    artifact.tag,
    content,
    (d) => createReadStream(byDigest.get(d)!, { highWaterMark: 1 << 20 }),
    opts,
  );
}

export interface ResolvedInMirror {
  index: { digest: string; mediaType: string };
  manifest: { digest: string; platform: { architecture: string; os: string } };
  file: Descriptor & { name: string | null };
}

/** Finds the architecture's file of `repository:tag` (or `@digest`), reading and checking the index and the manifest. */
export async function resolveFile(
  client: OciClient,
  repository: string,
  reference: string,
  architecture: string,
): Promise<ResolvedInMirror> {
  const index = await client.getManifest(repository, reference);
  if (!isIndexType(index.mediaType))
    throw new MirrorError('mirror_error', `${repository}:${reference} is a ${index.mediaType}, not an index of architectures`);
  const list = (JSON.parse(index.body.toString('utf8')) as { manifests?: Descriptor[] }).manifests ?? [];
  const entry = list.find((m) => m.platform?.architecture === architecture && (m.platform?.os ?? 'linux') === 'linux');
  if (!entry) throw new MirrorError('mirror_not_found', `${repository}:${reference} has no ${architecture} build`);
  const manifest = await client.getManifest(repository, entry.digest);
  const layers = (JSON.parse(manifest.body.toString('utf8')) as { layers?: Descriptor[] }).layers ?? [];
  const file = layers.find((l) => l.mediaType === NAVIN_ARTIFACT_FILE) ?? layers[0];
  if (!file) throw new MirrorError('mirror_error', `${repository}@${entry.digest} carries no file`);
  return {
    index: { digest: index.digest, mediaType: index.mediaType },
    manifest: { digest: manifest.digest, platform: { architecture, os: entry.platform?.os ?? 'linux' } },
    file: { ...file, name: file.annotations?.[ANNOTATION.title] ?? null },
  };
}

/**
 * Pulls the architecture's file of a catalog artifact to `dest`: the mirror's file must be the catalog's pin
 * (a different digest is `digest_mismatch` before a byte is fetched) and its bytes must hash to it.
 */
export async function pullArtifactFile(
  client: OciClient,
  artifact: ResolvedArtifact,
  architecture: string,
  dest: string,
  onBytes?: (n: number) => void,
): Promise<ResolvedInMirror> {
  const pin = artifact.platforms.find((p) => p.architecture === architecture);
  if (!pin || !pin.available)
    throw new MirrorError('mirror_error', `${artifact.key} has no available ${architecture} build in the catalog`);
  const found = await resolveFile(client, artifact.repository, artifact.tag, architecture);
  if (found.file.digest !== pin.digest || found.file.size !== pin.size)
    throw new MirrorError(
      'digest_mismatch',
      `the mirror holds ${artifact.key} (${architecture}) as ${found.file.digest}, the catalog pins ${pin.digest}`,
      {
        expected: pin.digest,
        actual: found.file.digest,
      },
    );
  await client.downloadBlob(artifact.repository, pin.digest, dest, pin.size, onBytes);
  return found;
}
