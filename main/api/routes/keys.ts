// The manager's public keys (manager.pem) for whoever verifies what the manager signed, and their rotation.
import { ok, type Router } from '../router';

export function keyRoutes(router: Router): void {
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

  router.authed('GET', '/api/v1/keys/manager.pem', 'viewer', ({ manager }) => ({
    status: 200,
    body: manager.keyring.managerPem(),
    contentType: 'application/x-pem-file',
  }));
}
