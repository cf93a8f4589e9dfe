// Mirror keys: `<service>:<name>@<version>` (e.g. `etcd:etcd@3.4.23-1`) names one artifact of one catalog
// version, stored in the OCI repository `navin/<service>/<name>` under the tag `<version>`, so several
// versions of an artifact live side by side.

export interface MirrorKey {
  service: string;
  name: string;
  version: string;
}

// The OCI distribution spec's grammar of repository names and tags.
const REPOSITORY_NAME = /^[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*(\/[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*)*$/;
const TAG = /^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$/;
export const isRepositoryName = (s: string): boolean => s.length <= 255 && REPOSITORY_NAME.test(s);
export const isTag = (s: string): boolean => TAG.test(s);

export const REPOSITORY_ROOT = 'navin';
const KEY = /^([a-z0-9][a-z0-9-]*):([a-z0-9][a-z0-9._-]*)@([a-zA-Z0-9_][a-zA-Z0-9._-]{0,127})$/;

export const formatMirrorKey = (k: MirrorKey): string => `${k.service}:${k.name}@${k.version}`;

export function parseMirrorKey(text: string): MirrorKey | null {
  const m = KEY.exec(text);
  if (!m) return null;
  const key = { service: m[1]!, name: m[2]!, version: m[3]! };
  return isRepositoryName(repositoryOf(key)) && isTag(key.version) ? key : null;
}

export const repositoryOf = (k: Pick<MirrorKey, 'service' | 'name'>): string => `${REPOSITORY_ROOT}/${k.service}/${k.name}`;

/** The key of a `navin/<service>/<name>` repository and tag, or null for a repository outside that scheme. */
export function keyOfRepository(repository: string, tag: string): MirrorKey | null {
  const parts = repository.split('/');
  if (parts.length !== 3 || parts[0] !== REPOSITORY_ROOT) return null;
  return parseMirrorKey(`${parts[1]}:${parts[2]}@${tag}`);
}
