// Type test (checked by `npm run typecheck`): handlers compile only against the contract of their route.
// Every expected-error directive below fails the typecheck if its line compiles, i.e. if the contract stopped biting.
import { ok, Router, text } from '../../../../main/core/http/router';
import type { ClusterView, NewApiToken } from '../../../../main/contract';

const router = new Router();
const view: ClusterView = {
  id: 'c',
  name: 'edge',
  kind: 'kubernetes',
  description: '',
  tenant: 'default',
  state: 'pending',
  profile: 'development',
  fqdn: null,
  address: null,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
  agent: { connected: false, last_seen: null, offline_since: null, leader_replica: null, agent_version: null, certificate_serial: null },
};

// The right result compiles.
router.authed('GET', '/api/v1/clusters/:id', 'viewer', ({ params }) => ok({ ...view, id: params.id }));
router.public('GET', '/api/v1/health', () => ok({ status: 'ok', time: new Date().toISOString() }));

// @ts-expect-error a field the contract does not declare in the result
router.authed('GET', '/api/v1/clusters/:id', 'viewer', () => ok({ ...view, sealed_token: 'x' }));

// @ts-expect-error a field of the wrong type in the result
router.public('GET', '/api/v1/health', () => ok({ status: 'ok', time: 12 }));

// @ts-expect-error a result missing a declared field
router.public('GET', '/api/v1/version', () => ok({ name: 'navin-manager', version: '1', api: 'v1' }));

// @ts-expect-error the same in an async handler
router.authed('GET', '/api/v1/clusters', 'viewer', async () => ok({ items: [view], total: 1 }));

// @ts-expect-error a JSON route answered with text
router.authed('GET', '/api/v1/clusters/:id', 'viewer', () => text('yaml', 'application/yaml'));

// @ts-expect-error a route that is not in the contract
router.authed('GET', '/api/v1/clusterz', 'viewer', () => ok({ items: [] }));

// @ts-expect-error a method the contract does not declare for this pattern
router.authed('PUT', '/api/v1/clusters', 'viewer', () => ok({ items: [] }));

router.authed('GET', '/api/v1/clusters/:id/backups/:set/verify', 'viewer', ({ params }) => {
  // @ts-expect-error a path parameter the pattern does not have
  void params.name;
  throw new Error(params.set);
});

router.authed('GET', '/api/v1/commands', 'viewer', ({ query }) => {
  // @ts-expect-error a query parameter the route does not declare
  void query.state;
  return ok({ items: [], cluster: query.cluster_id } as never);
});

router.authed('POST', '/api/v1/clusters', 'operator', ({ body }) => {
  // @ts-expect-error a body field the route does not declare
  void body.nmae;
  return ok({ ...view, name: body.name }, 201);
});

// A route declared schema first hands its handler the parsed body, typed by the schema's output: no cast.
router.authed('POST', '/api/v1/users/:name/tokens', 'viewer', ({ body }) => {
  const label: string | null | undefined = body?.name;
  void label;
  // @ts-expect-error a field the schema does not declare
  void body?.secret;
  // @ts-expect-error the body may be absent (the route takes none), so it is not an object for sure
  void body.expires;
  return ok(
    {
      id: '',
      user: '',
      name: null,
      created_at: '',
      created_by: '',
      expires_at: '',
      revoked_at: null,
      revoked_by: null,
      state: 'active',
      token: '',
    },
    201,
  );
});

// A schema-first route answers the status its contract declares, which its OpenAPI document shows.
// @ts-expect-error the contract answers 204 (a `z.null()` result), not 200
router.authed('DELETE', '/api/v1/users/:name/mfa', 'admin', () => ok(null));
// @ts-expect-error the contract answers 201 (its `status`), not 200
router.authed('POST', '/api/v1/users/:name/tokens', 'viewer', () => ok({} as NewApiToken));

// A schema-first route's result is the schema's type: a state it does not list does not compile.
router.authed('DELETE', '/api/v1/users/:name/tokens/:id', 'viewer', () =>
  ok({
    id: '',
    user: '',
    name: null,
    created_at: '',
    created_by: '',
    expires_at: '',
    revoked_at: null,
    revoked_by: null,
    // @ts-expect-error not a state of a token
    state: 'lost',
  }),
);
