// Health and version (contract: contract/system.ts): the two routes that need no login, for probes and for
// the console's about box.
import { ok, type Router } from '../router';

export function systemRoutes(router: Router): void {
  router.public('GET', '/api/v1/health', ({ manager }) => ok({ status: 'ok', time: manager.clock.now().toISOString() }));
  router.public('GET', '/api/v1/version', ({ manager }) =>
    ok({ name: 'navin-manager', version: manager.version, api: 'v1', mode: manager.mode }),
  );
}
