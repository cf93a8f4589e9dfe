// The renewal schedule run now (contract: contract/certificates.ts), by an admin: what it decided for each service
// with certificates due. It restarts services outside the lifecycle gate, as the schedule does: admins only.
import { ok, type Router } from '../http/router';

const DAY_MS = 86_400_000;

export function renewalRoutes(router: Router): void {
  router.authed('POST', '/api/v1/certificates/renewals', 'admin', async ({ manager, body }) => {
    const at = new Date(manager.clock.now().getTime() + (body.due_within_days ?? 0) * DAY_MS);
    return ok({ items: await manager.services.renewals.tick(at) });
  });
}
