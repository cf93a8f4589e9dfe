// The audit log, searchable by actor, cluster and action, with the verdict of its hash chain.
import { ok, type Router } from '../router';

export function auditRoutes(router: Router): void {
  router.authed('GET', '/api/v1/audit', 'viewer', ({ manager, query }) => {
    const q = (k: string): string | undefined => query.get(k) || undefined;
    const before = q('before_seq');
    return ok({
      items: manager.store.audit.list({
        actor: q('actor'),
        cluster_id: q('cluster_id'),
        action: q('action'),
        limit: Number(q('limit') ?? 200),
        before_seq: before ? Number(before) : undefined,
      }),
    });
  });

  router.authed('GET', '/api/v1/audit/verify', 'viewer', ({ manager }) => ok(manager.store.audit.verify()));
}
