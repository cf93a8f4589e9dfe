// Drift of hosts clusters (contract: contract/drift.ts): the findings and the alert, a scan now, the report-only
// mode, and realigning a finding's service (a configuration through the lifecycle gate).
import { ok, type Router } from '../http/router';

export function driftRoutes(router: Router): void {
  router.authed('GET', '/api/v1/clusters/:id/drift', 'viewer', ({ manager, params }) => ok(manager.drift.view(params.id)));

  router.authed('POST', '/api/v1/clusters/:id/drift/scan', 'operator', async ({ manager, params, principal }) =>
    ok(await manager.drift.scan(params.id, principal.actor)),
  );

  router.authed('PUT', '/api/v1/clusters/:id/drift/mode', 'operator', ({ manager, params, body, principal }) =>
    ok(manager.drift.setMode(params.id, body.mode, principal.actor)),
  );

  router.authed('POST', '/api/v1/drift/findings/:id/realign', 'operator', async ({ manager, params, body, principal }) => {
    const approval = body.approval_id;
    return ok(await manager.drift.realign(params.id, principal.user, approval ? approval : undefined), 202);
  });
}
