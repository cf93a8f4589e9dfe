// Local accounts, managed by admins (contract: contract/users.ts): creation, the list (with who has a second
// factor) and the reset of a user's second factor when their authenticator is lost. Where a profile in use wants
// four eyes, creating an admin and resetting an admin's factor take an approval (fourEyes).
import { noContent, ok, type Router } from '../http/router';

// An empty approval_id is none, as the console sends it when no approval is picked.
const approvalOf = (v: string | null | undefined): string | undefined => v || undefined;

export function userRoutes(router: Router): void {
  router.authed('GET', '/api/v1/users', 'admin', ({ manager }) => ok({ items: manager.accounts.listUsers() }));

  router.authed('POST', '/api/v1/users', 'admin', async ({ manager, body, principal }) => {
    const { name, role, password } = body;
    const user = await manager.fourEyes.run(
      manager.fourEyes.userCreation(name, role),
      principal.user,
      approvalOf(body.approval_id),
      (within) => manager.accounts.addUser(name, role, password, principal.actor, within),
    );
    return ok(user, 201);
  });

  router.authed('DELETE', '/api/v1/users/:name/mfa', 'admin', async ({ manager, params, query, principal }) => {
    await manager.fourEyes.run(manager.fourEyes.mfaReset(params.name), principal.user, approvalOf(query.approval_id), (within) =>
      manager.accounts.resetMfa(params.name, principal.actor, within),
    );
    return noContent();
  });
}
