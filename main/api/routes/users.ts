// Local accounts, managed by admins (contract: contract/users.ts): creation, the list (with who has a second
// factor) and the reset of a user's second factor when their authenticator is lost.
import { objectBody, stringField } from '../body';
import { noContent, ok, type Router } from '../router';
import type { Role } from '../../core/store/accounts-tables';

export function userRoutes(router: Router): void {
  router.authed('GET', '/api/v1/users', 'admin', ({ manager }) => ok({ items: manager.accounts.listUsers() }));

  router.authed('POST', '/api/v1/users', 'admin', async ({ manager, body, principal }) => {
    const b = objectBody(body);
    const user = await manager.accounts.addUser(
      stringField(b, 'name'),
      stringField(b, 'role') as Role,
      stringField(b, 'password'),
      principal.actor,
    );
    return ok(user, 201);
  });

  router.authed('DELETE', '/api/v1/users/:name/mfa', 'admin', ({ manager, params, principal }) => {
    manager.accounts.resetMfa(params.name, principal.actor);
    return noContent();
  });
}
