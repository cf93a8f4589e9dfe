// The component sheet (contract: contract/service-sheet.ts): a service as its agents observed it, a refresh that
// asks the hosts to report now, the host figures over time, and the instances' journals read through the agents.
import { ok, type Router } from '../http/router';

export function serviceSheetRoutes(router: Router): void {
  router.authed('GET', '/api/v1/clusters/:id/services/:service/sheet', 'viewer', ({ manager, params }) =>
    ok(manager.sheets.sheet(params.id, params.service)),
  );

  router.authed('POST', '/api/v1/clusters/:id/services/:service/sheet/refresh', 'operator', async ({ manager, params, principal }) =>
    ok(await manager.sheets.refresh(params.id, params.service, principal.actor)),
  );

  router.authed('GET', '/api/v1/clusters/:id/services/:service/metrics', 'viewer', ({ manager, params, query }) =>
    ok(manager.sheets.metrics(params.id, params.service, query.minutes)),
  );

  router.authed('POST', '/api/v1/clusters/:id/services/:service/logs', 'operator', async ({ manager, params, body, principal }) =>
    ok({ items: await manager.sheets.logs(params.id, params.service, body.lines, principal.actor) }),
  );
}
