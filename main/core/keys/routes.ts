// The manager's public keys (contract: contract/keys.ts): manager.pem for whoever verifies what the manager
// signed, and their rotation (audited by the keyring).
import { ok, text, type Router } from '../http/router';

export function keyRoutes(router: Router): void {
  router.authed('GET', '/api/v1/keys', 'viewer', ({ manager }) => ok({ items: manager.keyring.list() }));

  // Rotation: the new key signs from now on; the old one stays trusted until an admin retires it.
  router.authed('POST', '/api/v1/keys/rotate', 'admin', ({ manager, principal }) => {
    const keyId = manager.keyring.rotate(principal.actor);
    return ok({ key_id: keyId, items: manager.keyring.list() }, 201);
  });

  router.authed('POST', '/api/v1/keys/:id/retire', 'admin', ({ manager, params, principal }) => {
    manager.keyring.retire(params.id, principal.actor);
    return ok({ items: manager.keyring.list() });
  });

  router.authed('GET', '/api/v1/keys/manager.pem', 'viewer', ({ manager }) => text(manager.keyring.managerPem(), 'application/x-pem-file'));
}
