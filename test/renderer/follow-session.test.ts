// The data stores following the session: a first page asked for during start-up is used by the list opened at
// its end, and by nothing later; an operator who leaves takes their data with them.
import { describe, expect, it } from 'vitest';
import { followSession } from '../../renderer/src/app/follow-session';
import { FIRST_PAGE, createClustersStore } from '../../renderer/src/features/clusters/store';
import { createRouterStore } from '../../renderer/src/stores/router';
import { createSessionStore } from '../../renderer/src/features/session/store';
import { FakeApi, alice, cluster, flush, makeClient, sessionOf } from './support/fake-api';

const FIRST = `GET /api/v1/clusters?limit=${FIRST_PAGE}`;

function setup(hash: string) {
  const api = new FakeApi();
  api.on('GET /api/v1/session', { status: 200, body: sessionOf(alice) }).on('GET /api/v1/setup', { status: 200, body: { needed: false } });
  api.on(FIRST, { status: 200, body: { items: [cluster('asked-at-start-up')], total: 1, next: null } });
  const client = makeClient(api);
  const session = createSessionStore({ client });
  const router = createRouterStore({ initialHash: hash });
  const clusters = createClustersStore({ client, eventDebounceMs: 0 });
  let resets = 0;
  const stop = followSession({ session, router, clusters, resetData: () => resets++ });
  return { api, session, router, clusters, stop, resets: () => resets };
}

describe('the data stores follow the session', () => {
  it('the list open when start-up ends is drawn from the page asked for alongside the session check', async () => {
    const { api, session, clusters, stop } = setup('#/clusters');
    await session.getState().bootstrap('#/clusters', clusters.getState().prefetchFirstPage());
    await flush();
    expect(clusters.getState().items.map((c) => c.name)).toEqual(['asked-at-start-up']);
    expect(api.calls.filter((c) => c.path.startsWith('/api/v1/clusters'))).toHaveLength(1);
    stop();
  });

  it('a page asked for at start-up is not shown when the list is opened later: that list is asked for again', async () => {
    const { api, session, router, clusters, stop } = setup('#/audit');
    // The operator left the list while the session check was out: start-up ends on another screen.
    await session.getState().bootstrap('#/clusters', clusters.getState().prefetchFirstPage());
    expect(session.getState().status).toBe('authenticated');
    api.on(FIRST, { status: 200, body: { items: [cluster('now')], total: 1, next: null } });
    router.getState().navigate('clusters');
    await clusters.getState().load();
    expect(clusters.getState().items.map((c) => c.name)).toEqual(['now']);
    stop();
  });

  it('signing out resets the data stores', async () => {
    const { api, session, stop, resets } = setup('#/audit');
    await session.getState().bootstrap('#/audit');
    api.on('DELETE /api/v1/session', { status: 204, body: null });
    await session.getState().logout();
    expect(resets()).toBe(1);
    stop();
  });
});
