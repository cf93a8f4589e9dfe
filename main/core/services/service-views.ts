// What the API shows of a service and of an operation: the records as people read them, host names instead of
// ids, each plan with its tasks' states and the operation's progress.
import type { OperationView, ServiceView } from '../../contract/services';
import type { OperationRecord, ServiceRecord } from './services-tables';
import type { ServicesDeps } from './services-deps';

export type { OperationView, ServiceView };

type ViewDeps = Pick<ServicesDeps, 'tables' | 'catalog' | 'hostCommands'>;

export function serviceView(d: ViewDeps, r: ServiceRecord): ServiceView {
  const desc = d.catalog()?.service(r.service);
  const latest = d.tables.services.operations(r.cluster_id, r.service, 1)[0];
  return {
    service: r.service,
    title: desc?.title ?? r.service,
    version: r.version,
    state: r.state,
    hosts: r.hosts.map((id) => {
      const h = d.tables.hosts.get(id);
      return { id, name: h?.name ?? id, address: h?.address ?? '' };
    }),
    config: r.config,
    config_version: d.tables.services.configVersions(r.cluster_id, r.service)[0]?.number ?? null,
    checks: r.checks,
    checks_at: r.checks_at,
    operation: latest ? operationView(d, latest) : null,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export function operationView(d: ViewDeps, o: OperationRecord): OperationView {
  const names = new Map(d.tables.hosts.list(o.cluster_id).map((h) => [h.id, h.name]));
  let done = 0;
  let total = 0;
  const phases = o.phases.map((phase, i) => {
    const plans = o.plans
      .filter((p) => p.phase === i)
      .map((p) => ({ ...d.hostCommands.plan(p.command_id), host_name: names.get(p.host_id) ?? p.host_id }));
    for (const p of phase.plans) total += p.args.tasks.length;
    for (const p of plans) done += p.tasks.filter((t) => t.status === 'succeeded').length;
    return { name: phase.name, hosts: phase.plans.map((p) => names.get(p.host_id) ?? p.host_id), plans };
  });
  return {
    id: o.id,
    cluster_id: o.cluster_id,
    service: o.service,
    action: o.action,
    version: o.version,
    state: o.state,
    code: o.code,
    message: o.message,
    phase: o.phase,
    phases,
    progress: { done, total },
    requested_by: o.requested_by,
    created_at: o.created_at,
    finished_at: o.finished_at,
  };
}
