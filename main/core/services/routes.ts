// Services of hosts clusters (contract: contract/services.ts): install a catalog service on chosen hosts, change
// its configuration, run an action (start, stop, restart, uninstall, the checks, the functional test alone), and
// follow each operation's plans task by task. Every change goes through the lifecycle gate in the core; the
// bodies come parsed by the contract's schemas, their values judged by the core.
import { ok, type Router } from '../http/router';
import { operationVisibleTo } from '../commands/command-visibility';

export function serviceRoutes(router: Router): void {
  router.authed('GET', '/api/v1/clusters/:id/services', 'viewer', ({ manager, params }) => ok({ items: manager.services.list(params.id) }));

  router.authed('POST', '/api/v1/clusters/:id/services', 'operator', async ({ manager, params, body, principal }) =>
    ok(await manager.services.install(params.id, body, principal.user), 202),
  );

  router.authed('GET', '/api/v1/clusters/:id/services/:service', 'viewer', ({ manager, params }) =>
    ok(manager.services.get(params.id, params.service)),
  );

  router.authed('PUT', '/api/v1/clusters/:id/services/:service/config', 'operator', async ({ manager, params, body, principal }) =>
    ok(await manager.services.configure(params.id, params.service, body, principal.user), 202),
  );

  router.authed('POST', '/api/v1/clusters/:id/services/:service/actions', 'operator', async ({ manager, params, body, principal }) =>
    ok(await manager.services.action(params.id, params.service, body, principal.user), 202),
  );

  // Operations are open to viewers, without what their plans' programs printed below an operator.
  router.authed('GET', '/api/v1/clusters/:id/services/:service/operations', 'viewer', ({ manager, params, query, principal }) =>
    ok({
      items: manager.services.operations(params.id, params.service, query.limit).map((o) => operationVisibleTo(o, principal.user.role)),
    }),
  );

  router.authed('GET', '/api/v1/clusters/:id/services/:service/config-versions', 'viewer', ({ manager, params }) =>
    ok({ items: manager.services.configVersions(params.id, params.service) }),
  );

  router.authed('GET', '/api/v1/operations/:id', 'viewer', ({ manager, params, principal }) =>
    ok(operationVisibleTo(manager.services.operation(params.id), principal.user.role)),
  );

  router.authed('GET', '/api/v1/clusters/:id/services/:service/upgrade', 'viewer', ({ manager, params, query }) =>
    ok(manager.services.upgradeInfo(params.id, params.service, query.to)),
  );

  router.authed('POST', '/api/v1/clusters/:id/services/:service/upgrade', 'operator', async ({ manager, params, body, principal }) =>
    ok(await manager.services.upgrade(params.id, params.service, body, principal.user), 202),
  );

  router.authed('POST', '/api/v1/clusters/:id/services/:service/tls', 'operator', async ({ manager, params, body, principal }) =>
    ok(await manager.services.enableTls(params.id, params.service, body, principal.user), 202),
  );

  router.authed('POST', '/api/v1/clusters/:id/services/:service/rollback', 'operator', async ({ manager, params, body, principal }) =>
    ok(await manager.services.rollback(params.id, params.service, body, principal.user), 202),
  );
}
