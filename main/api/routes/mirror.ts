// The internal mirror: what it holds per service and version, offline-bundle imports (a bundle file the
// operator picked on this workstation, with live progress), and the release keys trusted to sign bundles.
import { NotFoundError } from '../../core/errors';
import { objectBody } from '../body';
import { noContent, ok, type Router } from '../router';

export function mirrorRoutes(router: Router): void {
  router.authed('GET', '/api/v1/mirror', 'viewer', async ({ manager }) => ok(await manager.mirror.inventory()));

  router.authed('GET', '/api/v1/mirror/imports', 'viewer', ({ manager }) => ok({ items: manager.mirror.imports() }));

  router.authed('GET', '/api/v1/mirror/imports/:id', 'viewer', ({ manager, params }) => {
    const view = manager.mirror.getImport(params.id);
    if (!view) throw new NotFoundError('mirror import', params.id);
    return ok(view);
  });

  // Returns at once (202); the import runs on, reported by `mirror.import.progress` events and this record.
  router.authed('POST', '/api/v1/mirror/imports', 'admin', ({ manager, body, principal }) => {
    const { import: started, done } = manager.mirror.start(objectBody(body).path, principal.actor);
    void done;
    return ok(started, 202);
  });

  router.authed('GET', '/api/v1/settings/release-keys', 'viewer', ({ manager }) => ok({ keys: manager.releaseKeys.list() }));

  router.authed('POST', '/api/v1/settings/release-keys', 'admin', ({ manager, body, principal }) => {
    const b = objectBody(body);
    return ok(manager.releaseKeys.trust(b.public_key_pem, b.label, principal.actor), 201);
  });

  router.authed('DELETE', '/api/v1/settings/release-keys/:key_id', 'admin', ({ manager, params, principal }) => {
    manager.releaseKeys.untrust(params.key_id, principal.actor);
    return noContent();
  });
}
