// Health, version and the API's OpenAPI document (contract: contract/system.ts): health and version need no
// login, for probes and for the console's about box; the document needs a viewer, as the rest of the API does.
import { openApiDocument } from '../../contract/openapi';
import { ok, type Router } from '../router';

export function systemRoutes(router: Router): void {
  router.public('GET', '/api/v1/health', ({ manager }) => ok({ status: 'ok', time: manager.clock.now().toISOString() }));
  router.public('GET', '/api/v1/version', ({ manager }) =>
    ok({ name: 'navin-manager', version: manager.version, api: 'v1', mode: manager.mode }),
  );
  router.authed('GET', '/api/v1/openapi.json', 'viewer', ({ manager }) =>
    ok(openApiDocument({ version: manager.version, routes: router.list() })),
  );
}
