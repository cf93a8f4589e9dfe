// The audit log (contract: contract/audit.ts), searchable by actor, cluster and action, with the verdict of
// its hash chain.
import { ok, type Router } from '../router';

export function auditRoutes(router: Router): void {
  router.authed('GET', '/api/v1/audit', 'viewer', ({ manager, query }) => {
    const q = (k: 'actor' | 'cluster_id' | 'action' | 'limit' | 'before_seq'): string | undefined => query.get(k) || undefined;
    const limit = q('limit');
    const before = q('before_seq');
    return ok({
      items: manager.audit.list({
        actor: q('actor'),
        cluster_id: q('cluster_id'),
        action: q('action'),
        limit: limit === undefined ? undefined : Number(limit),
        before_seq: before ? Number(before) : undefined,
      }),
    });
  });

  router.authed('GET', '/api/v1/audit/verify', 'viewer', ({ manager }) => ok(manager.audit.verify()));
}
