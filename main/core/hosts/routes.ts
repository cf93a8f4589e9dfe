// Hosts of clusters of kind hosts (contract: contract/hosts.ts): add and list hosts, issue a host's node agent
// identity (with the install commands), send it a signed plan or a facts report, and follow a plan task by task.
import { noContent, ok, type Router } from '../http/router';
import { planVisibleTo } from '../commands/command-visibility';

export function hostRoutes(router: Router): void {
  router.authed('GET', '/api/v1/clusters/:id/hosts', 'viewer', ({ manager, params }) => ok({ items: manager.hosts.views(params.id) }));

  router.authed('POST', '/api/v1/clusters/:id/hosts', 'operator', ({ manager, params, body, principal }) => {
    const host = manager.hosts.add(params.id, body, principal.actor);
    return ok(manager.hosts.view(host.id), 201);
  });

  router.authed('GET', '/api/v1/hosts/:host_id', 'viewer', ({ manager, params }) => ok(manager.hosts.view(params.host_id)));

  router.authed('DELETE', '/api/v1/hosts/:host_id', 'operator', async ({ manager, params, query, principal }) => {
    await manager.fourEyes.run(manager.fourEyes.hostDeletion(params.host_id), principal.user, query.approval_id || undefined, (within) =>
      manager.hosts.remove(params.host_id, principal.actor, within),
    );
    return noContent();
  });

  router.authed('POST', '/api/v1/hosts/:host_id/agent', 'operator', async ({ manager, params, body, principal }) => {
    const { approval_id, ...request } = body;
    const identity = await manager.fourEyes.run(
      manager.fourEyes.hostIdentity(params.host_id),
      principal.user,
      approval_id || undefined,
      (within) => manager.hostIdentities.issue(params.host_id, request, principal.actor, within),
    );
    return ok(identity, 201);
  });

  // A raw plan is an administrator's tool; service operations (with the lifecycle gate) build plans too.
  router.authed('POST', '/api/v1/hosts/:host_id/plans', 'admin', async ({ manager, params, body, principal }) =>
    ok(await manager.hostCommands.issueRawPlan(params.host_id, body, principal.actor), 202),
  );

  router.authed('POST', '/api/v1/hosts/:host_id/facts/report', 'operator', ({ manager, params, principal }) =>
    ok(manager.hostCommands.issueFactsReport(params.host_id, principal.actor), 202),
  );

  router.authed('GET', '/api/v1/hosts/:host_id/commands', 'viewer', ({ manager, params, query, principal }) =>
    ok({ items: manager.hostCommands.list(params.host_id, principal.user.role, query.limit) }),
  );

  // Open to viewers, without what the plan's programs printed below an operator (command-visibility.ts).
  router.authed('GET', '/api/v1/commands/:id/plan', 'viewer', ({ manager, params, principal }) =>
    ok(planVisibleTo(manager.hostCommands.plan(params.id), principal.user.role)),
  );
}
