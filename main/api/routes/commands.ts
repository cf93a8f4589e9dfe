// Components and commands (contract: contract/commands.ts): apply and delete a ManagedComponent, the other
// component operations and the inventory report, all through the lifecycle gate; commands and receipts.
import { objectBody } from '../body';
import { ok, type Reply, type Router } from '../router';
import { LIMIT_RANGE, queryInt, queryString } from '../query';
import type { OperationAccepted } from '../../contract/commands';
import { ValidationError } from '../../core/errors';
import { COMPONENT_ACTIONS, type ComponentAction } from '../../core/lifecycle/actions';
import type { LifecycleResult } from '../../core/lifecycle/lifecycle';

const approvalOf = (v: unknown): string | undefined => {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new ValidationError('approval_id', 'approval_id is the id of an approved request');
  return v;
};

/** 202: the command is signed and queued for the agent. */
export const accepted = (r: LifecycleResult): Reply<OperationAccepted> =>
  ok({ ...r.command, action: r.action, preflight: r.preflight }, 202);

export function commandRoutes(router: Router): void {
  router.authed('GET', '/api/v1/clusters/:id/components', 'viewer', ({ manager, params }) => ok(manager.commands.components(params.id)));

  // Every operation goes through the lifecycle gate: profile rules, four-eyes approval, preflight.
  router.authed('POST', '/api/v1/clusters/:id/components', 'operator', async ({ manager, params, body, principal }) => {
    const b = objectBody(body);
    return accepted(
      await manager.lifecycle.run(params.id, { kind: 'apply', name: b.name, spec: b.spec }, principal.user, approvalOf(b.approval_id)),
    );
  });

  router.authed('DELETE', '/api/v1/clusters/:id/components/:name', 'operator', async ({ manager, params, query, principal }) =>
    accepted(
      await manager.lifecycle.run(params.id, { kind: 'delete', name: params.name }, principal.user, approvalOf(query.get('approval_id'))),
    ),
  );

  router.authed('POST', '/api/v1/clusters/:id/components/:name/actions', 'operator', async ({ manager, params, body, principal }) => {
    const b = objectBody(body);
    if (typeof b.action !== 'string' || !(COMPONENT_ACTIONS as readonly string[]).includes(b.action))
      throw new ValidationError('action', `action must be one of ${COMPONENT_ACTIONS.join(', ')}`);
    return accepted(
      await manager.lifecycle.run(
        params.id,
        { kind: b.action as ComponentAction, name: params.name },
        principal.user,
        approvalOf(b.approval_id),
      ),
    );
  });

  router.authed('POST', '/api/v1/clusters/:id/inventory/report', 'operator', async ({ manager, params, principal }) => {
    const r = await manager.lifecycle.run(params.id, { kind: 'inventory' }, principal.user);
    return ok({ ...r.command, action: r.action }, 202);
  });

  // Open to viewers, each command as the reader's role may see it (a journal's text, a plan's file contents withheld).
  router.authed('GET', '/api/v1/commands', 'viewer', ({ manager, query, principal }) =>
    ok({
      items: manager.commands.listFor(principal.user.role, queryString(query, 'cluster_id'), queryInt(query, 'limit', LIMIT_RANGE, 200)),
    }),
  );

  router.authed('GET', '/api/v1/commands/:id', 'viewer', ({ manager, params, principal }) =>
    ok(manager.commands.read(params.id, principal.user.role)),
  );

  router.authed('GET', '/api/v1/commands/:id/envelope', 'operator', ({ manager, params }) => ok(manager.commands.envelope(params.id)));
}
