// What the mirror holds, per service and version: every `navin/...` repository and tag, each index read (and
// its digest checked) for its architectures and files, compared with what the catalog pins for that key.
import type { Catalog } from '../catalog/catalog';
import { keyOfRepository, REPOSITORY_ROOT } from '../catalog/mirror-keys';
import { MirrorError } from './mirror-errors';
import { isIndexType } from './media-types';
import type { Descriptor, OciClient } from './oci-client';
import { resolveFile } from './artifacts';
import type { MirrorArtifactEntry, MirrorImageEntry, MirrorInventory } from '../../contract/mirror';

async function mapLimit<T, R>(items: T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

export async function mirrorInventory(client: OciClient, catalog: Catalog | null): Promise<MirrorInventory> {
  const repositories = (await client.repositories()).filter((r) => r.startsWith(`${REPOSITORY_ROOT}/`)).sort();
  const tagged = (
    await mapLimit(repositories, 4, async (repository) => (await client.tags(repository)).map((tag) => ({ repository, tag })))
  ).flat();
  const artifacts: MirrorArtifactEntry[] = [];
  const images: MirrorImageEntry[] = [];
  await mapLimit(tagged, 4, async ({ repository, tag }) => {
    const key = keyOfRepository(repository, tag);
    const manifest = await client.getManifest(repository, tag);
    const json = JSON.parse(manifest.body.toString('utf8')) as { artifactType?: string; manifests?: Descriptor[] };
    if (!key || json.artifactType === undefined) {
      images.push({
        repository,
        tag,
        digest: manifest.digest,
        media_type: manifest.mediaType,
        platforms: isIndexType(manifest.mediaType)
          ? (json.manifests ?? []).map((m) => `${m.platform?.os ?? '?'}/${m.platform?.architecture ?? '?'}`)
          : [],
      });
      return;
    }
    const entry: MirrorArtifactEntry = {
      key: `${key.service}:${key.name}@${key.version}`,
      ...key,
      repository,
      digest: manifest.digest,
      platforms: [],
      catalog: 'unknown',
    };
    try {
      for (const m of json.manifests ?? []) {
        const arch = m.platform?.architecture;
        if (!arch) continue;
        const found = await resolveFile(client, repository, manifest.digest, arch);
        entry.platforms.push({
          architecture: arch,
          manifest: found.manifest.digest,
          file_digest: found.file.digest,
          size: found.file.size,
        });
      }
      const pinned = catalog?.artifacts(key.service, key.version).find((a) => a.name === key.name);
      if (pinned)
        entry.catalog = entry.platforms.every((p) =>
          pinned.platforms.some((c) => c.architecture === p.architecture && c.available && c.digest === p.file_digest),
        )
          ? 'pinned'
          : 'differs';
    } catch (error) {
      if (!(error instanceof MirrorError)) throw error;
      entry.problem = `${error.code}: ${error.message}`;
    }
    artifacts.push(entry);
  });
  const order = (a: { repository: string; tag?: string; version?: string }, b: typeof a) =>
    a.repository.localeCompare(b.repository) ||
    String(a.version ?? a.tag).localeCompare(String(b.version ?? b.tag), undefined, { numeric: true });
  return { mirror: client.endpoint.url, artifacts: artifacts.sort(order), images: images.sort(order) };
}
