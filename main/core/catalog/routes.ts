// The service catalog, read only: every service with its versions and artifacts, and one service in full.
import { NotFoundError } from '../errors';
import { catalogService, catalogSummary } from './catalog-view';
import type { Manager } from '../manager';
import { ok, type Router } from '../http/router';

const loaded = (manager: Manager) => {
  if (!manager.catalog.ok) throw manager.catalog.error;
  return manager.catalog.catalog;
};

export function catalogRoutes(router: Router): void {
  // An invalid catalog is answered with its problems (file, path, line, reason) rather than an error page.
  router.authed('GET', '/api/v1/catalog', 'viewer', ({ manager }) => {
    if (!manager.catalog.ok) return ok({ valid: false, problems: manager.catalog.error.problems, services: [] });
    const c = manager.catalog.catalog;
    return ok({ valid: true, digest: c.digest, files: c.sources, services: catalogSummary(c) });
  });

  router.authed('GET', '/api/v1/catalog/:service', 'viewer', ({ manager, params }) => {
    const service = catalogService(loaded(manager), params.service);
    if (!service) throw new NotFoundError('catalog service', params.service);
    return ok(service);
  });
}
