// Health, version and the API's OpenAPI document (contract: contract/system.ts): health and version need no
// login, for probes and for the console's about box; the document needs a viewer, as the rest of the API does.
import { openApiDocument, type OpenApiDocument } from '../../contract/openapi';
import { ok, type Router } from '../http/router';

export function systemRoutes(router: Router): void {
  // Built at the first call, once every route is in the router, then kept: the schemas do not change while the
  // manager runs, and building takes a noticeable moment of the event loop.
  let openApi: OpenApiDocument | undefined;
  router.public('GET', '/api/v1/health', ({ manager }) => ok({ status: 'ok', time: manager.clock.now().toISOString() }));
  router.public('GET', '/api/v1/version', ({ manager }) =>
    ok({ name: 'navin-manager', version: manager.version, api: 'v1', mode: manager.mode }),
  );
  router.authed('GET', '/api/v1/openapi.json', 'viewer', ({ manager }) =>
    ok((openApi ??= openApiDocument({ version: manager.version, routes: router.list() }))),
  );
}
