// The internal mirror (contract: contract/mirror.ts): what it holds per service and version, offline-bundle
// imports (a bundle file the operator picked on this workstation, with live progress), and the release keys
// trusted to sign bundles.
import { NotFoundError } from '../errors';
import { noContent, ok, type Router } from '../http/router';

export function mirrorRoutes(router: Router): void {
  router.authed('GET', '/api/v1/mirror', 'viewer', async ({ manager }) => ok(await manager.mirror.inventory()));

  router.authed('GET', '/api/v1/mirror/imports', 'viewer', ({ manager }) => ok({ items: manager.mirror.imports() }));

  router.authed('GET', '/api/v1/mirror/imports/:id', 'viewer', ({ manager, params }) => {
    const view = manager.mirror.getImport(params.id);
    if (!view) throw new NotFoundError('mirror import', params.id);
    return ok(view);
  });

  // Returns at once (202); the import runs on, reported by `mirror.import.progress` events and this record.
  // From our own window (IPC) the file is one the desktop user picked; over HTTPS, only the imports folder.
  router.authed('POST', '/api/v1/mirror/imports', 'admin', ({ manager, body, principal, credentials }) => {
    const { import: started, done } = manager.mirror.start(body.path, principal.actor, {
      allowDowngrade: body.allow_downgrade,
      confined: credentials.trustedChannel !== true,
    });
    void done;
    return ok(started, 202);
  });

  router.authed('GET', '/api/v1/settings/release-keys', 'viewer', ({ manager }) => ok({ keys: manager.releaseKeys.list() }));

  // A key of one admin's own would let him sign bundles alone: four-eyes where a profile in use wants it.
  router.authed('POST', '/api/v1/settings/release-keys', 'admin', async ({ manager, body, principal }) => {
    const key = await manager.fourEyes.run(
      manager.fourEyes.releaseKeyTrust(body.public_key_pem),
      principal.user,
      body.approval_id || undefined,
      (within) => manager.releaseKeys.trust(body.public_key_pem, body.label, principal.actor, within),
    );
    return ok(key, 201);
  });

  router.authed('DELETE', '/api/v1/settings/release-keys/:key_id', 'admin', ({ manager, params, principal }) => {
    manager.releaseKeys.untrust(params.key_id, principal.actor);
    return noContent();
  });
}
