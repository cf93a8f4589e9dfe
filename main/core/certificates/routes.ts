// The fleet view's route (contract: contract/certificates.ts): every certificate the product issued, the soonest
// to expire first, for any signed-in user.
import { ok, type Router } from '../http/router';
import { certificateFleet, fleetLedgers } from './fleet';

export function certificateRoutes(router: Router): void {
  router.authed('GET', '/api/v1/certificates', 'viewer', ({ manager, query }) =>
    ok({
      items: certificateFleet(fleetLedgers(manager), manager.clock.now(), {
        clusterId: query.cluster_id,
        expiringWithinDays: query.expiring_within_days,
      }),
    }),
  );
}
