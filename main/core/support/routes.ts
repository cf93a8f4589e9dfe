// Support archives of hosts clusters (contract: contract/support.ts): preview, build, list, fetch one.
import { ok, type Router } from '../http/router';

export function supportRoutes(router: Router): void {
  router.authed('GET', '/api/v1/clusters/:id/support/preview', 'operator', ({ manager, params }) =>
    ok({ items: manager.support.preview(params.id) }),
  );

  router.authed('POST', '/api/v1/clusters/:id/support', 'operator', async ({ manager, params, principal }) => {
    const { file: _file, ...created } = await manager.support.create(params.id, principal.actor);
    return ok(created, 201);
  });

  router.authed('GET', '/api/v1/clusters/:id/support', 'operator', ({ manager, params }) => ok({ items: manager.support.list(params.id) }));

  router.authed('GET', '/api/v1/clusters/:id/support/:archive', 'operator', ({ manager, params }) => {
    const bytes = manager.support.read(params.id, params.archive);
    return ok({ id: params.archive, bytes: bytes.length, content_base64: bytes.toString('base64') });
  });
}
