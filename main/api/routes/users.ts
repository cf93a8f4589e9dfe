// Local accounts, managed by admins.
import { objectBody, stringField } from '../body';
import { ok, type Router } from '../router';
import type { Role } from '../../core/store/accounts-tables';

export function userRoutes(router: Router): void {
  router.authed('GET', '/api/v1/users', 'admin', ({ manager }) => ok({ items: manager.accounts.listUsers() }));

  router.authed('POST', '/api/v1/users', 'admin', async ({ manager, body, principal }) => {
    const b = objectBody(body);
    const user = await manager.accounts.addUser(stringField(b, 'name'), stringField(b, 'role') as Role, stringField(b, 'password'), principal.actor);
    return ok(user, 201);
  });
}
