// Acceptance reports (contract: contract/reports.ts): run the acceptance of a cluster (a signed report comes
// back), list reports, download one exactly as signed, read it as HTML in English or French; and the internal
// mirror the acceptance checks against.
import { ok, text, type Router } from '../http/router';

export function reportRoutes(router: Router): void {
  router.authed('POST', '/api/v1/clusters/:id/acceptance', 'operator', async ({ manager, params, principal }) => {
    manager.clusters.get(params.id);
    return ok(await manager.reports.run(params.id, principal.actor), 201);
  });

  router.authed('GET', '/api/v1/reports', 'viewer', ({ manager, query }) =>
    ok({ items: manager.reports.list(query.cluster_id, query.limit) }),
  );

  router.authed('GET', '/api/v1/reports/:id', 'viewer', ({ manager, params }) => ok(manager.reports.get(params.id)));

  router.authed('GET', '/api/v1/reports/:id/html', 'viewer', ({ manager, params, query }) =>
    text(manager.reports.html(params.id, query.lang), 'text/html; charset=utf-8'),
  );

  router.authed('GET', '/api/v1/settings/mirror', 'admin', ({ manager }) => ok(manager.reports.mirror()));

  router.authed('PUT', '/api/v1/settings/mirror', 'admin', ({ manager, body, principal }) =>
    ok(manager.reports.setMirror(body, principal.actor)),
  );
}
