import { describe, expect, it } from 'vitest';
import {
  clusterHash,
  createRouterStore,
  hashOfRoute,
  routeFromHash,
  screenFromHash,
  hasClusterTab,
  setupTab,
  sheetHash,
} from '../../renderer/src/stores/router';

describe('hash routes', () => {
  it('reads screens, cluster pages with their tab, and settings sections', () => {
    expect(routeFromHash('#/audit')).toMatchObject({ screen: 'audit', clusterId: null });
    expect(routeFromHash('#/clusters/c-1')).toMatchObject({ screen: 'clusters', clusterId: 'c-1', clusterTab: 'overview' });
    expect(routeFromHash('#/clusters/c-1/components')).toMatchObject({ clusterId: 'c-1', clusterTab: 'components' });
    expect(routeFromHash('#/clusters/a%20b/agent')).toMatchObject({ clusterId: 'a b', clusterTab: 'agent' });
    expect(routeFromHash('#/settings/users')).toMatchObject({ screen: 'settings', settingsSection: 'users' });
    expect(routeFromHash('#/clusters/c-1/nope')).toBeNull();
    expect(routeFromHash('#/audit/x')).toBeNull();
    expect(routeFromHash('#ticket=abc')).toBeNull();
    expect(screenFromHash('#/components')).toBe('components');
  });

  it('reads the Profile tab and the security, syslog, DNS and mirror settings', () => {
    expect(routeFromHash('#/clusters/c-1/profile')).toMatchObject({ clusterId: 'c-1', clusterTab: 'profile' });
    for (const section of ['security', 'syslog', 'dns', 'mirror'])
      expect(routeFromHash(`#/settings/${section}`)).toMatchObject({ screen: 'settings', settingsSection: section });
    expect(routeFromHash('#/settings/nope')).toBeNull();
  });

  it('reads and writes a service sheet with its tab: #/clusters/{id}/services/{service}/{tab}', () => {
    expect(routeFromHash('#/clusters/c-1/services/etcd/metrics')).toMatchObject({
      screen: 'clusters',
      clusterId: 'c-1',
      clusterTab: 'services',
      service: 'etcd',
      sheetTab: 'metrics',
    });
    expect(routeFromHash('#/clusters/c-1/services/node-exporter')).toMatchObject({ service: 'node-exporter', sheetTab: 'overview' });
    // The services list itself is still the cluster's tab.
    expect(routeFromHash('#/clusters/c-1/services')).toMatchObject({ clusterTab: 'services', service: null });
    expect(routeFromHash('#/clusters/c-1/services/etcd/nope')).toBeNull();
    expect(sheetHash('c 1', 'etcd', 'logs')).toBe('#/clusters/c%201/services/etcd/logs');
    for (const h of ['#/clusters/c-1/services/etcd/audit', '#/clusters/c-1/services/nats']) expect(hashOfRoute(routeFromHash(h)!)).toBe(h);
    const written: string[] = [];
    const router = createRouterStore({ writeHash: (h) => written.push(h) });
    router.getState().openSheet('c-1', 'nats', 'instances');
    expect(router.getState()).toMatchObject({ clusterId: 'c-1', service: 'nats', sheetTab: 'instances' });
    router.getState().openCluster('c-1', 'drift');
    expect(router.getState()).toMatchObject({ service: null, clusterTab: 'drift' });
    expect(written).toEqual(['#/clusters/c-1/services/nats/instances', '#/clusters/c-1/drift']);
  });

  it('writes them back', () => {
    expect(clusterHash('c-1')).toBe('#/clusters/c-1');
    expect(clusterHash('c 1', 'commands')).toBe('#/clusters/c%201/commands');
    for (const h of ['#/clusters/c-1/import', '#/settings/users', '#/settings', '#/reports'])
      expect(hashOfRoute(routeFromHash(h)!)).toBe(h);
  });

  it('opens a cluster page and follows the address bar', () => {
    const written: string[] = [];
    const router = createRouterStore({ initialHash: '#/clusters/c-1/agent', writeHash: (h) => written.push(h) });
    expect(router.getState()).toMatchObject({ screen: 'clusters', clusterId: 'c-1', clusterTab: 'agent' });
    router.getState().openCluster('c-2', 'components');
    expect(router.getState()).toMatchObject({ clusterId: 'c-2', clusterTab: 'components' });
    router.getState().navigate('clusters');
    expect(router.getState().clusterId).toBeNull();
    router.getState().openSettings('users');
    expect(written).toEqual(['#/clusters/c-2/components', '#/clusters', '#/settings/users']);
    router.getState().syncFromHash('#/clusters/c-3');
    expect(router.getState()).toMatchObject({ screen: 'clusters', clusterId: 'c-3', clusterTab: 'overview' });
    router.getState().syncFromHash('#/not-a-screen');
    expect(router.getState().clusterId).toBe('c-3');
  });
});

describe('a new cluster’s first setup step', () => {
  it('is the import of a Kubernetes cluster and the hosts of a hosts cluster', () => {
    expect(setupTab('kubernetes')).toBe('import');
    expect(setupTab('hosts')).toBe('hosts');
    const written: string[] = [];
    const router = createRouterStore({ initialHash: '#/clusters', writeHash: (h) => written.push(h) });
    router.getState().openCluster('c-1', setupTab('kubernetes'));
    router.getState().openCluster('c-2', setupTab('hosts'));
    expect(written).toEqual(['#/clusters/c-1/import', '#/clusters/c-2/hosts']);
  });
});

describe('the tabs of a cluster page', () => {
  it('follow the kind of the cluster and the operator’s role', () => {
    expect(hasClusterTab('import', 'kubernetes', true)).toBe(true);
    expect(hasClusterTab('import', 'kubernetes', false)).toBe(false);
    expect(hasClusterTab('import', 'hosts', true)).toBe(false);
    expect(hasClusterTab('hosts', 'hosts', false)).toBe(true);
    expect(hasClusterTab('hosts', undefined, true)).toBe(false);
    expect(hasClusterTab('commands', 'hosts', false)).toBe(true);
  });
});
