// Turns an operator's request on a component into the lifecycle action it is (install, upgrade,
// configuration, stop, ...) and the ManagedComponent operation that carries it out, from the current desired
// state and the component's history of applied specs.
import type { Tables } from '../domain-tables';
import { CoreError, ValidationError } from '../errors';
import { checkComponentSpec } from '../commands/component-spec';
import { OP_APPLY, OP_DELETE, OP_INVENTORY, type ManagedComponentSpec } from '../../wire/protocol';
import type { ComponentAction } from '../../contract/commands';

export type LifecycleAction = 'install' | 'upgrade' | 'configuration' | 'uninstall' | ComponentAction | 'restore' | 'backup' | 'inventory';

export type LifecycleRequest =
  | { kind: 'apply'; name: unknown; spec: unknown }
  | { kind: 'delete'; name: string }
  | { kind: ComponentAction; name: string }
  | { kind: 'restore'; name: string; spec: unknown; set: string }
  | { kind: 'inventory' };

/**
 * The part of a request its action and component do not say: what an approval of it is bound to. A start or a
 * stop says it all; an apply its spec as the requester sent it; a restore the backup set it brings back; a
 * rollback the spec it goes back to (found in the history when planned: another apply meanwhile changes it).
 */
export function requestChange(req: LifecycleRequest, plan: Pick<PlannedOperation, 'spec'>): unknown {
  if (req.kind === 'apply') return { spec: req.spec };
  if (req.kind === 'restore') return { backup_set_id: req.set };
  if (req.kind === 'rollback') return { spec: plan.spec ?? null };
  return null;
}

export interface PlannedOperation {
  action: LifecycleAction;
  /** The component concerned ('' for a cluster-wide command). */
  service: string;
  op: string;
  args: Record<string, unknown>;
  /** The spec an install or upgrade will write (what the preflight checks). */
  spec?: ManagedComponentSpec;
  /** The desired-state generation the plan was made on: the command is refused if it moved meanwhile. */
  generation?: number;
}

export class LifecycleError extends CoreError {}

const images = (s: ManagedComponentSpec): string => JSON.stringify((s.artifacts ?? []).map((a) => a.image).sort());

/**
 * What an apply on an existing component really does, judged on what it changes, the most gated first: new
 * images or version (upgrade), replicas from 0 (start), a new restartedAt (restart), anything else
 * (configuration). So a "configuration" can never carry a start, a restart or an upgrade past the gate.
 */
export function applyAction(current: ManagedComponentSpec, next: ManagedComponentSpec): LifecycleAction {
  if (current.version !== next.version || images(current) !== images(next)) return 'upgrade';
  if (current.replicas === 0 && (next.replicas ?? 1) > 0) return 'start';
  if (next.restartedAt !== undefined && next.restartedAt !== current.restartedAt) return 'restart';
  return 'configuration';
}

export function planOperation(tables: Tables<'commands'>, clusterId: string, req: LifecycleRequest, now: Date): PlannedOperation {
  // A read of the cluster, never refused: it is how the state is observed to bring it back into compliance.
  if (req.kind === 'inventory') return { action: 'inventory', service: '', op: OP_INVENTORY, args: {} };
  const state = tables.commands.desiredState(clusterId);
  const desired = (state?.components ?? {}) as Record<string, ManagedComponentSpec>;
  const generation = state?.generation ?? 0;
  if (req.kind === 'apply') {
    if (typeof req.name !== 'string') throw new ValidationError('name', 'name is required (the component name)');
    const spec = checkComponentSpec(req.spec);
    const current = desired[req.name];
    const action: LifecycleAction = !current ? 'install' : applyAction(current, spec);
    return { action, service: req.name, op: OP_APPLY, args: { name: req.name, spec }, spec, generation };
  }
  // Back to the spec a backup holds (its files were re-hashed by whoever read it), present or not today.
  if (req.kind === 'restore') {
    const spec = checkComponentSpec(req.spec);
    return { action: 'restore', service: req.name, op: OP_APPLY, args: { name: req.name, spec }, spec, generation };
  }
  const current = desired[req.name];
  if (!current) throw new CoreError('not_found', `component ${req.name} is not in the desired state of this cluster`);
  if (req.kind === 'delete') return { action: 'uninstall', service: req.name, op: OP_DELETE, args: { name: req.name }, generation };
  const apply = (spec: ManagedComponentSpec): PlannedOperation => ({
    action: req.kind,
    service: req.name,
    op: OP_APPLY,
    args: { name: req.name, spec },
    spec,
    generation,
  });
  const stopped = current.replicas === 0;
  switch (req.kind) {
    case 'stop':
      if (stopped) throw new LifecycleError('already_stopped', `${req.name} is already stopped (0 replicas)`);
      return apply({ ...current, replicas: 0 });
    case 'start': {
      if (!stopped) throw new LifecycleError('not_stopped', `${req.name} is running; only a stopped component starts`);
      // Back to the replicas it ran with before it was stopped.
      const before = tables.commands.specHistory(clusterId, req.name).find((s) => ((s as ManagedComponentSpec).replicas ?? 1) > 0) as
        ManagedComponentSpec | undefined;
      return apply({ ...current, replicas: before?.replicas ?? 1 });
    }
    case 'restart':
      if (stopped) throw new LifecycleError('not_running', `${req.name} is stopped; start it instead`);
      return apply({ ...current, restartedAt: now.toISOString() });
    case 'rollback': {
      const previous = tables.commands
        .specHistory(clusterId, req.name)
        .find((s) => (s as ManagedComponentSpec).version !== current.version) as ManagedComponentSpec | undefined;
      if (!previous) throw new LifecycleError('rollback_unavailable', `${req.name} has no earlier version to roll back to`);
      return apply(checkComponentSpec(previous));
    }
  }
}

/**
 * The same for an operation of a catalog service on hosts: what its requester chose beside the action (the
 * whole settings of a configuration, the version of an upgrade, the set of a restore), bound to its approval; a
 * rollback's version and settings are those it brings back.
 */
export function operationChange(
  action: string,
  t: { version: string; hosts: string[]; settings: unknown; backup_set_id?: string | null },
): unknown {
  switch (action) {
    case 'install':
      return { version: t.version, hosts: [...t.hosts].sort(), settings: t.settings };
    case 'upgrade':
      return { version: t.version };
    case 'rollback':
      return { version: t.version, settings: t.settings };
    case 'configuration':
    case 'realign':
      return { settings: t.settings };
    case 'restore':
      return { backup_set_id: t.backup_set_id ?? null };
    default:
      return null;
  }
}
