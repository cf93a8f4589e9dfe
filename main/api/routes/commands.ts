// Components and commands: apply and delete a ManagedComponent, ask for an inventory report, follow commands
// and their receipts, and read each cluster's agent status and desired components.
import { objectBody } from '../body';
import { ok, type Router } from '../router';
import { LIMIT_RANGE, queryInt, queryString } from '../query';
import { agentStatus } from '../../core/clusters/agent-status';
import { ValidationError } from '../../core/errors';
import { COMPONENT_ACTIONS, type ComponentAction } from '../../core/lifecycle/actions';

const approvalOf = (v: unknown): string | undefined => {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new ValidationError('approval_id', 'approval_id is the id of an approved request');
  return v;
};

export function commandRoutes(router: Router): void {
  router.authed('GET', '/api/v1/clusters/:id/components', 'viewer', ({ manager, params }) => {
    manager.clusters.get(params.id!);
    const desired = manager.store.commands.desiredState(params.id!) ?? { generation: 0, components: {} };
    const snapshot = manager.store.clusterAccess.latestAgentSnapshot(params.id!);
    const observed = (snapshot?.data as { observed_components?: unknown } | undefined)?.observed_components ?? null;
    return ok({
      cluster_id: params.id,
      generation: desired.generation,
      desired: desired.components,
      observed,
      observed_at: observed ? snapshot!.taken_at : null,
    });
  });

  // Every operation goes through the lifecycle gate: profile rules, four-eyes approval, preflight.
  router.authed('POST', '/api/v1/clusters/:id/components', 'operator', async ({ manager, params, body, principal }) => {
    const b = objectBody(body);
    const r = await manager.lifecycle.run(
      params.id!,
      { kind: 'apply', name: b.name, spec: b.spec },
      principal.user,
      approvalOf(b.approval_id),
    );
    return ok({ ...r.command, action: r.action, preflight: r.preflight }, 202);
  });

  router.authed('DELETE', '/api/v1/clusters/:id/components/:name', 'operator', async ({ manager, params, query, principal }) => {
    const r = await manager.lifecycle.run(
      params.id!,
      { kind: 'delete', name: params.name! },
      principal.user,
      approvalOf(query.get('approval_id')),
    );
    return ok({ ...r.command, action: r.action, preflight: r.preflight }, 202);
  });

  router.authed('POST', '/api/v1/clusters/:id/components/:name/actions', 'operator', async ({ manager, params, body, principal }) => {
    const b = objectBody(body);
    if (typeof b.action !== 'string' || !(COMPONENT_ACTIONS as readonly string[]).includes(b.action))
      throw new ValidationError('action', `action must be one of ${COMPONENT_ACTIONS.join(', ')}`);
    const r = await manager.lifecycle.run(
      params.id!,
      { kind: b.action as ComponentAction, name: params.name! },
      principal.user,
      approvalOf(b.approval_id),
    );
    return ok({ ...r.command, action: r.action, preflight: r.preflight }, 202);
  });

  router.authed('POST', '/api/v1/clusters/:id/inventory/report', 'operator', async ({ manager, params, principal }) => {
    const r = await manager.lifecycle.run(params.id!, { kind: 'inventory' }, principal.user);
    return ok({ ...r.command, action: r.action }, 202);
  });

  router.authed('GET', '/api/v1/clusters/:id/agent', 'viewer', ({ manager, params }) => {
    manager.clusters.get(params.id!);
    return ok(agentStatus(manager.store, manager.clock, params.id!));
  });

  router.authed('GET', '/api/v1/commands', 'viewer', ({ manager, query }) =>
    ok({ items: manager.commands.list(queryString(query, 'cluster_id'), queryInt(query, 'limit', LIMIT_RANGE, 200)) }),
  );

  router.authed('GET', '/api/v1/commands/:id', 'viewer', ({ manager, params }) => ok(manager.commands.get(params.id!)));

  // The signed envelope itself, for the agent's fallback inbox when the gateway cannot be reached.
  router.authed('GET', '/api/v1/commands/:id/envelope', 'operator', ({ manager, params }) => ok(manager.commands.envelope(params.id!)));
}
