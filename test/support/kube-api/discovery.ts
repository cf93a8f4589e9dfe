// Discovery documents shaped as the real server's: /version, /api, /apis, /apis/{group}, APIResourceLists.
import type { Registry } from './resources.js';
import type { ResourceType } from './types.js';
import { groupVersion } from './types.js';

export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

export const versionInfo = (gitVersion = 'v1.30.0', overrides: Partial<VersionInfo> = {}): VersionInfo => {
  const m = /^v(\d+)\.(\d+)/.exec(gitVersion);
  return {
    major: m?.[1] ?? '1',
    minor: m?.[2] ?? '30',
    gitVersion,
    gitCommit: '7c48c2bd72b9bf5c44d21d7338cc7bea77d0ad2a',
    gitTreeState: 'clean',
    buildDate: '2024-04-17T17:27:03Z',
    goVersion: 'go1.22.2',
    compiler: 'gc',
    platform: 'linux/amd64',
    ...overrides,
  };
};

export const apiVersions = (serverAddress: string): object => ({
  kind: 'APIVersions',
  versions: ['v1'],
  serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
});

const groupDoc = (name: string, versions: string[]): object => {
  const gvs = versions.map((version) => ({ groupVersion: groupVersion(name, version), version }));
  return { name, versions: gvs, preferredVersion: gvs[0] };
};

export const apiGroupList = (registry: Registry): object => ({
  kind: 'APIGroupList',
  apiVersion: 'v1',
  groups: registry
    .groups()
    .filter((g) => g.name !== '')
    .map((g) => groupDoc(g.name, g.versions)),
});

export const apiGroup = (registry: Registry, name: string): object | undefined => {
  const g = registry.groups().find((x) => x.name === name && name !== '');
  return g && { kind: 'APIGroup', apiVersion: 'v1', ...groupDoc(g.name, g.versions) };
};

const entries = (rt: ResourceType): object[] => [
  {
    name: rt.plural,
    singularName: rt.singular,
    namespaced: rt.namespaced,
    kind: rt.kind,
    verbs: rt.verbs,
    ...(rt.shortNames ? { shortNames: rt.shortNames } : {}),
    ...(rt.categories ? { categories: rt.categories } : {}),
  },
  ...rt.subresources.map((s) => ({
    name: `${rt.plural}/${s.name}`,
    singularName: '',
    namespaced: rt.namespaced,
    ...(s.group !== undefined ? { group: s.group, version: s.version } : {}),
    kind: s.kind,
    verbs: s.verbs,
  })),
];

export const apiResourceList = (registry: Registry, group: string, version: string): object | undefined => {
  const types = registry.inGroupVersion(group, version);
  if (types.length === 0) return undefined;
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: groupVersion(group, version), resources: types.flatMap(entries) };
};
