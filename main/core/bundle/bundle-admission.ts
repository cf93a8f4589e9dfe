// What a bundle may do to the mirror once its signature holds: a release key signs whatever its holder built,
// so the tags are checked against what this manager knows. Artifacts only under the catalog's own keys and
// pins (`navin/<service>/<name>:<version>`), images only the ones the project ships (`navin/<image>`); and a
// bundle older than the one that set a tag does not move that tag back unless the import says so.
import type { Catalog } from '../catalog/catalog';
import { parseMirrorKey, repositoryOf, REPOSITORY_ROOT } from '../catalog/mirror-keys';
import { AGENT_NAME } from '../kubernetes/names';
import type { OciClient } from '../mirror/oci-client';
import { BundleError } from './bundle-errors';
import type { BundleContents, BundleItem } from './bundle-format';

/** The container images the project builds (agent/build-image.mjs): the only image repositories a bundle may tag. */
export const SHIPPED_IMAGES: readonly string[] = [AGENT_NAME];

/** Why one item may not be tagged, or null when it may. */
function refusalOf(item: BundleItem, catalog: Catalog | null): string | null {
  if (item.kind === 'image') {
    const at = item.key.lastIndexOf('@');
    const name = item.key.slice(0, at);
    if (at < 1 || item.key.slice(at + 1) !== item.tag || item.repository !== `${REPOSITORY_ROOT}/${name}`)
      return `its key ${item.key} does not name ${item.repository}:${item.tag}`;
    if (!SHIPPED_IMAGES.includes(name)) return `${name} is not an image the project ships (${SHIPPED_IMAGES.join(', ')})`;
    return null;
  }
  const key = parseMirrorKey(item.key);
  if (!key) return `${item.key} is not a mirror key (<service>:<name>@<version>)`;
  if (item.repository !== repositoryOf(key) || item.tag !== key.version)
    return `its key ${item.key} belongs in ${repositoryOf(key)}:${key.version}, not ${item.repository}:${item.tag}`;
  if (!catalog) return 'the catalog is not loaded (catalog_valid says why), so no artifact can be checked against it';
  const pinned = catalog.artifacts(key.service, key.version).find((a) => a.name === key.name);
  if (!pinned) return `${item.key} is not an artifact of the catalog`;
  if (item.files.length === 0) return `${item.key} lists no file to check against the catalog's pins`;
  for (const f of item.files) {
    const p = pinned.platforms.find((x) => x.architecture === f.architecture);
    if (!p?.available || p.digest !== f.digest)
      return `its ${f.architecture} file ${f.digest} is not the catalog's pin${p?.available ? ` (${p.digest})` : ''}`;
  }
  return null;
}

/** Refuses `bundle_tag_not_allowed` (every offending item named) when a tag is not one of this catalog's keys. */
export function checkBundleItems(contents: BundleContents, catalog: Catalog | null): void {
  const refused = contents.items.flatMap((item) => {
    const why = refusalOf(item, catalog);
    return why ? [{ repository: item.repository, tag: item.tag, key: item.key, reason: why }] : [];
  });
  if (refused.length > 0)
    throw new BundleError(
      'bundle_tag_not_allowed',
      `the bundle tags what this manager does not carry: ${refused
        .slice(0, 5)
        .map((r) => `${r.repository}:${r.tag} (${r.reason})`)
        .join('; ')}`,
      { items: refused.slice(0, 50) },
    );
}

export interface MovedTag {
  repository: string;
  tag: string;
  /** What the tag points at now. */
  from: string;
  /** What the bundle would point it at. */
  to: string;
}

/** The tags the mirror holds already that this bundle would point elsewhere. */
export async function movedTags(contents: BundleContents, client: OciClient): Promise<MovedTag[]> {
  const moved: MovedTag[] = [];
  for (const item of contents.items) {
    const now = await client.headManifest(item.repository, item.tag);
    if (now?.digest && now.digest !== item.digest)
      moved.push({ repository: item.repository, tag: item.tag, from: now.digest, to: item.digest });
  }
  return moved;
}

/** Which bundle set a tag to a digest, as the import records know it. */
export type TagOrigin = (repository: string, tag: string, digest: string) => { bundle_id: string; created_at: string } | null;

export interface Downgrade extends MovedTag {
  newer_bundle: string;
  newer_created_at: string;
}

/** The moved tags whose present digest came from a bundle made after this one: what importing it would undo. */
export function downgrades(contents: BundleContents, moved: readonly MovedTag[], originOf: TagOrigin): Downgrade[] {
  const made = Date.parse(contents.created_at);
  return moved.flatMap((m) => {
    const origin = originOf(m.repository, m.tag, m.from);
    return origin && Date.parse(origin.created_at) > made
      ? [{ ...m, newer_bundle: origin.bundle_id, newer_created_at: origin.created_at }]
      : [];
  });
}
