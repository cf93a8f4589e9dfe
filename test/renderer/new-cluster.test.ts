// After the new-cluster form: the new cluster's page opens on its first setup step, through the router store as
// links do, and that tab is one its page has.
import { afterEach, describe, expect, it } from 'vitest';
import type { ClusterKind } from '../../preload/api';
import { clustersStore, resetDataStores, routerStore } from '../../renderer/src/app/stores';
import { openCreatedCluster } from '../../renderer/src/features/clusters/ClustersScreen';
import { hasClusterTab } from '../../renderer/src/stores/router';
import { cluster } from './support/fake-api';

describe('a cluster just created', () => {
  afterEach(() => {
    resetDataStores();
    routerStore.getState().navigate('clusters');
  });

  const cases: [ClusterKind, 'import' | 'hosts'][] = [
    ['kubernetes', 'import'],
    ['hosts', 'hosts'],
  ];
  it.each(cases)('of kind %s opens its page on the %s tab', (kind, tab) => {
    clustersStore.getState().setCreateFormOpen(true);
    openCreatedCluster(cluster('edge-new', { id: 'c-new', kind }));
    expect(clustersStore.getState().createFormOpen).toBe(false);
    expect(routerStore.getState()).toMatchObject({ screen: 'clusters', clusterId: 'c-new', clusterTab: tab });
    // Its creator may write: the page shows that tab rather than falling back to the first one.
    expect(hasClusterTab(tab, kind, true)).toBe(true);
  });
});
