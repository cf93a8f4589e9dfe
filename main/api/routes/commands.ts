// Components and commands: apply and delete a ManagedComponent, ask for an inventory report, follow commands
// and their receipts, and read each cluster's agent status and desired components.
import { objectBody } from '../body';
import { ok, type Router } from '../router';
import { agentStatus } from '../../core/clusters/agent-status';
import { OP_APPLY, OP_DELETE, OP_INVENTORY } from '../../wire/protocol';

export function commandRoutes(router: Router): void {
  router.authed('GET', '/api/v1/clusters/:id/components', 'viewer', ({ manager, params }) => {
    manager.clusters.get(params.id!);
    const desired = manager.store.commands.desiredState(params.id!) ?? { generation: 0, components: {} };
    const snapshot = manager.store.clusterAccess.latestAgentSnapshot(params.id!);
    const observed = (snapshot?.data as { observed_components?: unknown } | undefined)?.observed_components ?? null;
    return ok({ cluster_id: params.id, generation: desired.generation, desired: desired.components, observed, observed_at: observed ? snapshot!.taken_at : null });
  });

  router.authed('POST', '/api/v1/clusters/:id/components', 'operator', ({ manager, params, body, principal }) => {
    const b = objectBody(body);
    const command = manager.commands.issue(params.id!, OP_APPLY, { name: b.name, spec: b.spec }, principal.actor);
    manager.events.emit('command.changed', { id: command.id, cluster_id: params.id });
    return ok(manager.commands.get(command.id), 202);
  });

  router.authed('DELETE', '/api/v1/clusters/:id/components/:name', 'operator', ({ manager, params, principal }) => {
    const command = manager.commands.issue(params.id!, OP_DELETE, { name: params.name }, principal.actor);
    manager.events.emit('command.changed', { id: command.id, cluster_id: params.id });
    return ok(manager.commands.get(command.id), 202);
  });

  router.authed('POST', '/api/v1/clusters/:id/inventory/report', 'operator', ({ manager, params, principal }) => {
    const command = manager.commands.issue(params.id!, OP_INVENTORY, {}, principal.actor);
    manager.events.emit('command.changed', { id: command.id, cluster_id: params.id });
    return ok(manager.commands.get(command.id), 202);
  });

  router.authed('GET', '/api/v1/clusters/:id/agent', 'viewer', ({ manager, params }) => {
    manager.clusters.get(params.id!);
    return ok(agentStatus(manager.store, manager.clock, params.id!));
  });

  router.authed('GET', '/api/v1/commands', 'viewer', ({ manager, query }) => ok({ items: manager.commands.list(query.get('cluster_id') ?? undefined, Number(query.get('limit') ?? 200)) }));

  router.authed('GET', '/api/v1/commands/:id', 'viewer', ({ manager, params }) => ok(manager.commands.get(params.id!)));

  // The signed envelope itself, for the agent's fallback inbox when the gateway cannot be reached.
  router.authed('GET', '/api/v1/commands/:id/envelope', 'operator', ({ manager, params }) => ok(manager.commands.envelope(params.id!)));
}
