// Hosts of clusters of kind hosts: add and list hosts, issue a host's node agent identity (with the install
// commands), send it a signed plan or a facts report, and follow a plan task by task.
import { objectBody } from '../body';
import { ok, type Router } from '../router';
import { hostView } from '../../core/hosts/host-status';

export function hostRoutes(router: Router): void {
  router.authed('GET', '/api/v1/clusters/:id/hosts', 'viewer', ({ manager, params }) =>
    ok({ items: manager.hosts.list(params.id!).map((h) => hostView(manager.store, manager.clock, h)) }),
  );

  router.authed('POST', '/api/v1/clusters/:id/hosts', 'operator', ({ manager, params, body, principal }) => {
    const b = objectBody(body);
    const host = manager.hosts.add(params.id!, { name: b.name, address: b.address }, principal.actor);
    manager.events.emit('host.changed', { id: host.id, cluster_id: host.cluster_id });
    return ok(hostView(manager.store, manager.clock, host), 201);
  });

  router.authed('GET', '/api/v1/hosts/:host_id', 'viewer', ({ manager, params }) =>
    ok(hostView(manager.store, manager.clock, manager.hosts.get(params.host_id!))),
  );

  router.authed('DELETE', '/api/v1/hosts/:host_id', 'operator', ({ manager, params, principal }) => {
    const host = manager.hosts.get(params.host_id!);
    manager.hosts.remove(host.id, principal.actor);
    manager.events.emit('host.changed', { id: host.id, cluster_id: host.cluster_id });
    return { status: 204, body: null };
  });

  router.authed('POST', '/api/v1/hosts/:host_id/agent', 'operator', ({ manager, params, body, principal }) => {
    const b = objectBody(body);
    const identity = manager.hostIdentities.issue(
      params.host_id!,
      { gateway_url: b.gateway_url, server_name: b.server_name, offline_after_s: b.offline_after_s },
      principal.actor,
    );
    manager.events.emit('host.changed', { id: params.host_id });
    return ok(identity, 201);
  });

  // A raw plan is an administrator's tool; service operations (with the lifecycle gate) build plans too.
  router.authed('POST', '/api/v1/hosts/:host_id/plans', 'admin', ({ manager, params, body, principal }) => {
    const command = manager.hostCommands.issuePlan(params.host_id!, objectBody(body), principal.actor);
    manager.events.emit('command.changed', { id: command.id, cluster_id: command.cluster_id, host_id: params.host_id });
    return ok(manager.commands.get(command.id), 202);
  });

  router.authed('POST', '/api/v1/hosts/:host_id/facts/report', 'operator', ({ manager, params, principal }) => {
    const command = manager.hostCommands.issueFactsReport(params.host_id!, principal.actor);
    manager.events.emit('command.changed', { id: command.id, cluster_id: command.cluster_id, host_id: params.host_id });
    return ok(manager.commands.get(command.id), 202);
  });

  router.authed('GET', '/api/v1/hosts/:host_id/commands', 'viewer', ({ manager, params, query }) => {
    manager.hosts.get(params.host_id!);
    const limit = Math.min(Math.max(Number(query.get('limit') ?? 50) || 50, 1), 500);
    return ok({ items: manager.store.hosts.listCommands(params.host_id!, limit).map((c) => manager.commands.get(c.id)) });
  });

  router.authed('GET', '/api/v1/commands/:id/plan', 'viewer', ({ manager, params }) => ok(manager.hostCommands.plan(params.id!)));
}
