// The manager CA's rotation (contract: contract/ca-rotation.ts): its progress for any signed-in user; its start
// for an admin, with an approved request where a profile in use wants four eyes (one admin alone would otherwise
// choose what every agent trusts).
import { ok, type Router } from '../http/router';
import type { Act } from '../lifecycle/four-eyes-acts';

const ROTATE: Act = { cluster_id: null, action: 'rotate_manager_ca', service: 'manager-ca' };

export function caRotationRoutes(router: Router): void {
  router.authed('GET', '/api/v1/ca/rotation', 'viewer', ({ manager }) => ok({ rotation: manager.caRotation.progress() }));

  router.authed('POST', '/api/v1/ca/rotation', 'admin', async ({ manager, body, principal }) => {
    const rotation = await manager.fourEyes.run(ROTATE, principal.user, body.approval_id || undefined, (within) =>
      manager.caRotation.start(principal.actor, within),
    );
    return ok({ rotation }, 201);
  });
}
