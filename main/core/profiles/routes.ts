// Profiles and preflight checks (contract: contract/profiles.ts): a cluster's profile evaluated now, changed
// by an admin, the preflight run on demand ("Run checks" on the Profile tab) and its latest result; the
// trusted CAs for service endpoints.
import { ok, type Router } from '../http/router';
import { NotFoundError } from '../errors';

export function profileRoutes(router: Router): void {
  router.authed('GET', '/api/v1/profiles', 'viewer', ({ manager }) => ok({ items: manager.profiles.catalog() }));

  router.authed('GET', '/api/v1/clusters/:id/profile', 'viewer', async ({ manager, params }) =>
    ok(await manager.profiles.evaluate(params.id)),
  );

  router.authed('PUT', '/api/v1/clusters/:id/profile', 'admin', async ({ manager, params, body, principal }) => {
    manager.lifecycle.changeProfile(params.id, body.profile, principal.user, manager.clusters, body.approval_id || undefined);
    return ok(await manager.profiles.evaluate(params.id));
  });

  router.authed('POST', '/api/v1/clusters/:id/preflight', 'operator', async ({ manager, params, principal }) =>
    ok(await manager.preflight.run(params.id, { trigger: 'on_demand', actor: principal.actor }), 201),
  );

  router.authed('GET', '/api/v1/clusters/:id/preflight', 'viewer', ({ manager, params }) => {
    manager.clusters.get(params.id);
    const run = manager.preflight.latest(params.id);
    if (!run) throw new NotFoundError('preflight run of cluster', params.id);
    return ok(run);
  });

  router.authed('GET', '/api/v1/settings/endpoint-trust', 'viewer', ({ manager }) => ok({ ca_pem: manager.settings.endpointTrust() }));

  router.authed('PUT', '/api/v1/settings/endpoint-trust', 'admin', ({ manager, body, principal }) =>
    ok({ ca_pem: manager.settings.setEndpointTrust(body.ca_pem, principal.actor) }),
  );
}
