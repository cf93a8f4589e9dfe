// Components and commands (contract: contract/commands.ts): apply and delete a ManagedComponent, the other
// component operations and the inventory report, all through the lifecycle gate; commands and receipts.
import { ok, type Reply, type Router } from '../http/router';
import type { OperationAccepted } from '../../contract/commands';
import type { LifecycleResult } from '../lifecycle/lifecycle';

// An empty approval_id is none, as the console sends it when no approval is picked.
const approvalOf = (v: string | null | undefined): string | undefined => v || undefined;

/** 202: the command is signed and queued for the agent. */
export const accepted = (r: LifecycleResult): Reply<OperationAccepted, 202> =>
  ok({ ...r.command, action: r.action, preflight: r.preflight }, 202);

export function commandRoutes(router: Router): void {
  router.authed('GET', '/api/v1/clusters/:id/components', 'viewer', ({ manager, params }) => ok(manager.commands.components(params.id)));

  // Every operation goes through the lifecycle gate: profile rules, four-eyes approval, preflight.
  router.authed('POST', '/api/v1/clusters/:id/components', 'operator', async ({ manager, params, body, principal }) =>
    accepted(
      await manager.lifecycle.run(
        params.id,
        { kind: 'apply', name: body.name, spec: body.spec },
        principal.user,
        approvalOf(body.approval_id),
      ),
    ),
  );

  router.authed('DELETE', '/api/v1/clusters/:id/components/:name', 'operator', async ({ manager, params, query, principal }) =>
    accepted(await manager.lifecycle.run(params.id, { kind: 'delete', name: params.name }, principal.user, approvalOf(query.approval_id))),
  );

  router.authed('POST', '/api/v1/clusters/:id/components/:name/actions', 'operator', async ({ manager, params, body, principal }) =>
    accepted(
      await manager.lifecycle.run(params.id, { kind: body.action, name: params.name }, principal.user, approvalOf(body.approval_id)),
    ),
  );

  router.authed('POST', '/api/v1/clusters/:id/inventory/report', 'operator', async ({ manager, params, principal }) => {
    const r = await manager.lifecycle.run(params.id, { kind: 'inventory' }, principal.user);
    return ok({ ...r.command, action: r.action }, 202);
  });

  // Open to viewers, each command as the reader's role may see it (a journal's text, a plan's file contents withheld).
  router.authed('GET', '/api/v1/commands', 'viewer', ({ manager, query, principal }) =>
    ok({ items: manager.commands.listFor(principal.user.role, query.cluster_id || undefined, query.limit) }),
  );

  router.authed('GET', '/api/v1/commands/:id', 'viewer', ({ manager, params, principal }) =>
    ok(manager.commands.read(params.id, principal.user.role)),
  );

  router.authed('GET', '/api/v1/commands/:id/envelope', 'operator', ({ manager, params }) => ok(manager.commands.envelope(params.id)));
}
