// The audit log, searchable by actor, cluster and action, with the verdict of its hash chain; and the
// manager's public keys (manager.pem) for whoever verifies what the manager signed.
import { ok, type Router } from '../router';

export function auditRoutes(router: Router): void {
  router.authed('GET', '/api/v1/audit', 'viewer', ({ manager, query }) => {
    const q = (k: string): string | undefined => query.get(k) || undefined;
    const before = q('before_seq');
    return ok({
      items: manager.store.audit.list({ actor: q('actor'), cluster_id: q('cluster_id'), action: q('action'), limit: Number(q('limit') ?? 200), before_seq: before ? Number(before) : undefined }),
    });
  });

  router.authed('GET', '/api/v1/audit/verify', 'viewer', ({ manager }) => ok(manager.store.audit.verify()));

  router.authed('GET', '/api/v1/keys', 'viewer', ({ manager }) => ok({ items: manager.keyring.list() }));

  // Rotation: the new key signs from now on; the old one stays trusted until an admin retires it.
  router.authed('POST', '/api/v1/keys/rotate', 'admin', ({ manager, principal }) => {
    const keyId = manager.store.tx(() => {
      const id = manager.keyring.rotate();
      manager.store.audit.append({ actor: principal.actor, action: 'key.rotate', target: id });
      return id;
    });
    return ok({ key_id: keyId, items: manager.keyring.list() }, 201);
  });

  router.authed('POST', '/api/v1/keys/:id/retire', 'admin', ({ manager, params, principal }) => {
    manager.store.tx(() => {
      manager.keyring.retire(params.id!);
      manager.store.audit.append({ actor: principal.actor, action: 'key.retire', target: params.id! });
    });
    return ok({ items: manager.keyring.list() });
  });

  router.authed('GET', '/api/v1/keys/manager.pem', 'viewer', ({ manager }) => ({ status: 200, body: manager.keyring.managerPem(), contentType: 'application/x-pem-file' }));
}
