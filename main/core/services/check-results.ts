// The latest check outcomes of a service: liveness per host, readiness and the functional test, from the check
// tasks of its operations' plans and from the liveness each host's agent measures on its own.
import type { OperationRecord, ServiceCheckResults } from './services-tables';
import type { PlanResult, TaskOutcome } from '../../wire/plan';
import type { CheckOutcome } from '../../wire/service-checks';
import { parseTimestamp } from '../../wire/timestamps';
import type { ServicesDeps } from './services-deps';

export interface LivenessReport {
  host_id: string;
  cluster_id: string;
  liveness: Record<string, CheckOutcome>;
}

/** The liveness a host's agent measured on its own (watched units) becomes its instances' latest liveness. */
export function recordLiveness(d: Pick<ServicesDeps, 'store' | 'tables' | 'clock' | 'catalog' | 'events'>, report: LivenessReport): void {
  const catalog = d.catalog();
  const at = d.clock.now().toISOString();
  for (const r of d.tables.services.list(report.cluster_id)) {
    const unit = catalog?.service(r.service)?.unit.name;
    const outcome = unit ? report.liveness[unit] : undefined;
    if (!outcome || !r.hosts.includes(report.host_id)) continue;
    const checks: ServiceCheckResults = r.checks ?? { liveness: {}, readiness: null, functional: null };
    const before = checks.liveness[report.host_id];
    if (before && !((parseTimestamp(outcome.started_at) ?? -Infinity) > (parseTimestamp(before.outcome.started_at) ?? -Infinity))) continue;
    checks.liveness[report.host_id] = { at: outcome.started_at, outcome };
    d.tables.services.setChecks(r.cluster_id, r.service, checks, at);
    if (before?.outcome.status !== outcome.status) d.events.emit('service.changed', { cluster_id: r.cluster_id, service: r.service });
  }
}

/** Keeps the check outcomes the plans carried (passed or failed) as the service's latest results. */
export function recordChecks(
  d: Pick<ServicesDeps, 'store' | 'tables'>,
  op: OperationRecord,
  plans: { host_id: string; result: Partial<PlanResult> | null }[],
  at: string,
): void {
  const r = d.tables.services.get(op.cluster_id, op.service);
  if (!r) return;
  const checks: ServiceCheckResults = r.checks ?? { liveness: {}, readiness: null, functional: null };
  let seen = false;
  for (const p of plans)
    for (const t of p.result?.tasks ?? []) {
      const outcome = checkOf(t);
      if (t.kind !== 'check' || !outcome) continue;
      seen = true;
      if (t.id === 'liveness') checks.liveness[p.host_id] = { at, outcome };
      else if (t.id === 'readiness' || t.id === 'functional') checks[t.id] = { at, host_id: p.host_id, outcome };
    }
  if (seen) d.tables.services.setChecks(op.cluster_id, op.service, checks, at);
}

/** The CheckOutcome a check task reported, passed (output.check) or failed (the failure's output.check). */
function checkOf(t: TaskOutcome): CheckOutcome | null {
  const c = (t.output as { check?: CheckOutcome } | undefined)?.check;
  return c && typeof c === 'object' && (c.status === 'pass' || c.status === 'fail') ? c : null;
}
