// Type test (checked by `npm run typecheck`): the renderer's client calls routes by the same contract the
// handlers compile against. Every expected-error directive below fails the typecheck if its line compiles.
import type { ApiClient } from '../../renderer/src/api/client';
import type { ClusterView, SessionInfo } from '../../preload/api';

export async function calls(client: ApiClient): Promise<void> {
  const view: ClusterView = await client.call('GET /api/v1/clusters/:id', { params: { id: 'c' } });
  const session: SessionInfo = await client.getSession();
  void [view, session];

  // @ts-expect-error a route that is not in the contract
  await client.call('GET /api/v1/clusterz');
  // @ts-expect-error a body field the route does not declare
  await client.call('POST /api/v1/clusters', { body: { nmae: 'edge' } });
  // @ts-expect-error a body value of the wrong type
  await client.call('PUT /api/v1/settings/dns', { body: { servers: '10.0.0.53' } });
  // @ts-expect-error the path parameters of the pattern are required
  await client.call('GET /api/v1/clusters/:id');
  // @ts-expect-error a path parameter the pattern does not have
  await client.call('GET /api/v1/clusters/:id', { params: { id: 'c', set: 's' } });
  // @ts-expect-error a query parameter the route does not declare
  await client.call('GET /api/v1/commands', { query: { state: 'queued' } });
  // @ts-expect-error a JSON route is not read as text
  await client.callText('GET /api/v1/clusters');

  const list = await client.listClusters();
  // @ts-expect-error a field the result does not have
  void list.cursor;
  const created = await client.createCluster({ name: 'edge' });
  // @ts-expect-error the result's fields keep their types
  const n: number = created.name;
  void n;
}
