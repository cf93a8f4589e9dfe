// Which screen is shown. Hash routes (`#/clusters`, `#/clusters/<id>/components`, `#/settings/users`) work the
// same from file:// in the desktop window and over HTTPS in a browser; `#ticket=` and `#setup=` are launch links
// handled by the session store, not routes.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ClusterKind, SheetTab } from '../../../preload/api';

export const SCREENS = [
  'clusters',
  'components',
  'commands',
  'mirror',
  'approvals',
  'checks',
  'reports',
  'certificates',
  'audit',
  'settings',
] as const;
export type ScreenId = (typeof SCREENS)[number];
export const DEFAULT_SCREEN: ScreenId = 'clusters';

/** The tabs of a cluster page. */
export const CLUSTER_TABS = [
  'overview',
  'profile',
  'import',
  'agent',
  'hosts',
  'services',
  'backups',
  'drift',
  'support',
  'components',
  'commands',
] as const;
export type ClusterTab = (typeof CLUSTER_TABS)[number];
export const DEFAULT_CLUSTER_TAB: ClusterTab = 'overview';

const WRITE_TABS: readonly ClusterTab[] = ['import', 'agent'];
/** A hosts cluster has no Kubernetes import, cluster agent or ManagedComponents: its hosts have node agents. */
const KUBERNETES_TABS: readonly ClusterTab[] = ['overview', 'import', 'agent', 'components'];
/** Only a hosts cluster has hosts, and the catalog services installed on them. */
const HOSTS_TABS: readonly ClusterTab[] = ['hosts', 'services', 'backups', 'drift', 'support'];

/** Whether a cluster page has this tab, for the cluster's kind (Kubernetes while not known yet) and the operator. */
export function hasClusterTab(tab: ClusterTab, kind: ClusterKind | undefined, canWrite: boolean): boolean {
  if (!canWrite && WRITE_TABS.includes(tab)) return false;
  return kind === 'hosts' ? !KUBERNETES_TABS.includes(tab) : !HOSTS_TABS.includes(tab);
}

/** Where a new cluster's page opens: its first setup step (the import of a Kubernetes cluster, the hosts of a hosts one). */
export function setupTab(kind: ClusterKind): ClusterTab {
  return kind === 'hosts' ? 'hosts' : 'import';
}

/** The twelve tabs of a service's component sheet, in their order. */
export const SHEET_TABS = [
  'overview',
  'instances',
  'configuration',
  'dependencies',
  'logs',
  'metrics',
  'security',
  'operations',
  'upgrade',
  'backups',
  'audit',
  'support',
] as const satisfies readonly SheetTab[];
export const DEFAULT_SHEET_TAB: SheetTab = 'overview';

export function isSheetTab(v: string): v is SheetTab {
  return (SHEET_TABS as readonly string[]).includes(v);
}

export const SETTINGS_SECTIONS = ['preferences', 'security', 'users', 'syslog', 'dns', 'mirror', 'endpoints'] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];
/** The sections every operator sees; the others are for administrators. */
export const OWN_SETTINGS_SECTIONS: readonly SettingsSection[] = ['preferences', 'security'];

export interface Route {
  screen: ScreenId;
  /** On the clusters screen: the cluster whose page is open (null: the list). */
  clusterId: string | null;
  clusterTab: ClusterTab;
  /** On a cluster page: the service whose component sheet is open (null: none), and its tab. */
  service: string | null;
  sheetTab: SheetTab;
  settingsSection: SettingsSection;
}

export function isScreenId(v: string): v is ScreenId {
  return (SCREENS as readonly string[]).includes(v);
}

export function isClusterTab(v: string): v is ClusterTab {
  return (CLUSTER_TABS as readonly string[]).includes(v);
}

function isSettingsSection(v: string): v is SettingsSection {
  return (SETTINGS_SECTIONS as readonly string[]).includes(v);
}

const base = (screen: ScreenId): Route => ({
  screen,
  clusterId: null,
  clusterTab: DEFAULT_CLUSTER_TAB,
  service: null,
  sheetTab: DEFAULT_SHEET_TAB,
  settingsSection: 'preferences',
});

const decode = (s: string): string | null => {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
};

/** `#/clusters/c-1/services/etcd/metrics` → the sheet's route (on a Kubernetes cluster too: its components). */
function sheetRoute(hash: string): Route | null {
  const m = /^#\/clusters\/([^/]+)\/services\/([^/]+)(?:\/([a-z]+))?\/?$/.exec(hash);
  if (!m || !m[1] || !m[2]) return null;
  const id = decode(m[1]);
  const service = decode(m[2]);
  if (!id || !service || (m[3] !== undefined && !isSheetTab(m[3]))) return null;
  return {
    ...base('clusters'),
    clusterId: id,
    clusterTab: 'services',
    service,
    sheetTab: (m[3] as SheetTab | undefined) ?? DEFAULT_SHEET_TAB,
  };
}

/** `#/clusters/c-1/components` → the route; anything that is not a route → null. */
export function routeFromHash(hash: string): Route | null {
  const sheet = sheetRoute(hash);
  if (sheet) return sheet;
  const m = /^#\/([a-z]+)(?:\/([^/]+))?(?:\/([a-z]+))?\/?$/.exec(hash);
  if (!m || !m[1] || !isScreenId(m[1])) return null;
  const screen = m[1];
  const second = m[2];
  const third = m[3];
  if (second === undefined) return base(screen);
  if (screen === 'clusters') {
    let id: string;
    try {
      id = decodeURIComponent(second);
    } catch {
      return null;
    }
    if (third !== undefined && !isClusterTab(third)) return null;
    return { ...base('clusters'), clusterId: id, clusterTab: third ?? DEFAULT_CLUSTER_TAB };
  }
  if (screen === 'settings' && third === undefined && isSettingsSection(second)) return { ...base('settings'), settingsSection: second };
  return null;
}

/** `#/clusters` → 'clusters'; anything else → null. */
export function screenFromHash(hash: string): ScreenId | null {
  return routeFromHash(hash)?.screen ?? null;
}

export function hashOf(screen: ScreenId): string {
  return `#/${screen}`;
}

export function clusterHash(id: string, tab: ClusterTab = DEFAULT_CLUSTER_TAB): string {
  const path = `#/clusters/${encodeURIComponent(id)}`;
  return tab === DEFAULT_CLUSTER_TAB ? path : `${path}/${tab}`;
}

export function sheetHash(clusterId: string, service: string, tab: SheetTab = DEFAULT_SHEET_TAB): string {
  const path = `#/clusters/${encodeURIComponent(clusterId)}/services/${encodeURIComponent(service)}`;
  return tab === DEFAULT_SHEET_TAB ? path : `${path}/${tab}`;
}

export function settingsHash(section: SettingsSection): string {
  return section === 'preferences' ? hashOf('settings') : `#/settings/${section}`;
}

export function hashOfRoute(route: Route): string {
  if (route.screen === 'clusters' && route.clusterId && route.service) return sheetHash(route.clusterId, route.service, route.sheetTab);
  if (route.screen === 'clusters' && route.clusterId) return clusterHash(route.clusterId, route.clusterTab);
  if (route.screen === 'settings') return settingsHash(route.settingsSection);
  return hashOf(route.screen);
}

function sameRoute(a: Route, b: Route): boolean {
  return (
    a.screen === b.screen &&
    a.clusterId === b.clusterId &&
    a.clusterTab === b.clusterTab &&
    a.service === b.service &&
    a.sheetTab === b.sheetTab &&
    a.settingsSection === b.settingsSection
  );
}

export interface RouterState extends Route {
  navigate(screen: ScreenId): void;
  openCluster(id: string, tab?: ClusterTab): void;
  /** A service's component sheet, at one of its tabs. */
  openSheet(clusterId: string, service: string, tab?: SheetTab): void;
  openSettings(section: SettingsSection): void;
  /** The address bar changed (hashchange). */
  syncFromHash(hash: string): void;
}

export type RouterStore = StoreApi<RouterState>;

export interface RouterDeps {
  initialHash?: string;
  /** Writes the hash to the address bar (location.hash in the app). */
  writeHash?: (hash: string) => void;
}

export function createRouterStore(deps: RouterDeps = {}): RouterStore {
  return createStore<RouterState>()((set, get) => {
    const go = (route: Route): void => {
      if (!sameRoute(get(), route)) set(route);
      deps.writeHash?.(hashOfRoute(route));
    };
    return {
      ...(routeFromHash(deps.initialHash ?? '') ?? base(DEFAULT_SCREEN)),
      navigate(screen) {
        if (!isScreenId(screen)) return;
        go(base(screen));
      },
      openCluster(id, tab = DEFAULT_CLUSTER_TAB) {
        if (!id) return;
        go({ ...base('clusters'), clusterId: id, clusterTab: isClusterTab(tab) ? tab : DEFAULT_CLUSTER_TAB });
      },
      openSheet(clusterId, service, tab = DEFAULT_SHEET_TAB) {
        if (!clusterId || !service) return;
        go({ ...base('clusters'), clusterId, clusterTab: 'services', service, sheetTab: isSheetTab(tab) ? tab : DEFAULT_SHEET_TAB });
      },
      openSettings(section) {
        if (!isSettingsSection(section)) return;
        go({ ...base('settings'), settingsSection: section });
      },
      syncFromHash(hash) {
        const route = routeFromHash(hash);
        if (route && !sameRoute(get(), route)) set(route);
      },
    };
  });
}
