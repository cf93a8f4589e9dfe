// The audit log (contract: contract/audit.ts), searchable by actor, cluster and action, with the verdict of
// its hash chain.
import { ok, type Router } from '../router';
import { LIMIT_RANGE, queryInt, queryString, SEQ_RANGE } from '../query';

export function auditRoutes(router: Router): void {
  router.authed('GET', '/api/v1/audit', 'viewer', ({ manager, query }) =>
    ok({
      items: manager.audit.list({
        actor: queryString(query, 'actor'),
        cluster_id: queryString(query, 'cluster_id'),
        action: queryString(query, 'action'),
        target: queryString(query, 'target'),
        limit: queryInt(query, 'limit', LIMIT_RANGE, 200),
        before_seq: queryInt(query, 'before_seq', SEQ_RANGE),
      }),
    }),
  );

  router.authed('GET', '/api/v1/audit/verify', 'viewer', ({ manager }) => ok(manager.audit.verify()));
}
