// The audit log (contract: contract/audit.ts), searchable by actor, cluster and action, with the verdict of
// its hash chain.
import { ok, type Router } from '../http/router';

export function auditRoutes(router: Router): void {
  router.authed('GET', '/api/v1/audit', 'viewer', ({ manager, query }) => ok({ items: manager.audit.list(query) }));

  router.authed('GET', '/api/v1/audit/verify', 'viewer', ({ manager }) => ok(manager.audit.verify()));
}
