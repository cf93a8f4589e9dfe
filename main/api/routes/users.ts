// Local accounts, managed by admins (contract: contract/users.ts): creation, the list (with who has a second
// factor) and the reset of a user's second factor when their authenticator is lost. Where a profile in use wants
// four eyes, creating an admin and resetting an admin's factor take an approval (fourEyes).
import { objectBody, stringField } from '../body';
import { noContent, ok, type Router } from '../router';
import type { Role } from '../../core/store/accounts-tables';

const approvalOf = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

export function userRoutes(router: Router): void {
  router.authed('GET', '/api/v1/users', 'admin', ({ manager }) => ok({ items: manager.accounts.listUsers() }));

  router.authed('POST', '/api/v1/users', 'admin', async ({ manager, body, principal }) => {
    const b = objectBody(body);
    const name = stringField(b, 'name');
    const role = stringField(b, 'role') as Role;
    const password = stringField(b, 'password');
    const user = await manager.fourEyes.run(
      manager.fourEyes.userCreation(name, role),
      principal.user,
      approvalOf(b.approval_id),
      (within) => manager.accounts.addUser(name, role, password, principal.actor, within),
    );
    return ok(user, 201);
  });

  router.authed('DELETE', '/api/v1/users/:name/mfa', 'admin', async ({ manager, params, query, principal }) => {
    await manager.fourEyes.run(manager.fourEyes.mfaReset(params.name), principal.user, approvalOf(query.get('approval_id')), (within) =>
      manager.accounts.resetMfa(params.name, principal.actor, within),
    );
    return noContent();
  });
}
