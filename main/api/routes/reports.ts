// Acceptance reports (contract: contract/reports.ts): run the acceptance of a cluster (a signed report comes
// back), list reports, download one exactly as signed, read it as HTML in English or French; and the internal
// mirror the acceptance checks against.
import { ApiError } from '../api-error';
import { objectBody } from '../body';
import { ok, text, type Router } from '../router';
import { LIMIT_RANGE, queryInt, queryString } from '../query';
import { REPORT_LANGUAGES, type ReportLanguage } from '../../core/reports/report-html';

export function reportRoutes(router: Router): void {
  router.authed('POST', '/api/v1/clusters/:id/acceptance', 'operator', async ({ manager, params, principal }) => {
    manager.clusters.get(params.id);
    return ok(await manager.reports.run(params.id, principal.actor), 201);
  });

  router.authed('GET', '/api/v1/reports', 'viewer', ({ manager, query }) =>
    ok({ items: manager.reports.list(queryString(query, 'cluster_id'), queryInt(query, 'limit', LIMIT_RANGE)) }),
  );

  router.authed('GET', '/api/v1/reports/:id', 'viewer', ({ manager, params }) => ok(manager.reports.get(params.id)));

  router.authed('GET', '/api/v1/reports/:id/html', 'viewer', ({ manager, params, query }) => {
    const lang = query.get('lang') ?? 'en';
    if (!REPORT_LANGUAGES.includes(lang as ReportLanguage))
      throw new ApiError('invalid_field', `lang must be one of ${REPORT_LANGUAGES.join(', ')}`, 'lang');
    return text(manager.reports.html(params.id, lang as ReportLanguage), 'text/html; charset=utf-8');
  });

  router.authed('GET', '/api/v1/settings/mirror', 'admin', ({ manager }) => ok(manager.reports.mirror()));

  router.authed('PUT', '/api/v1/settings/mirror', 'admin', ({ manager, body, principal }) =>
    ok(manager.reports.setMirror(objectBody(body), principal.actor)),
  );
}
