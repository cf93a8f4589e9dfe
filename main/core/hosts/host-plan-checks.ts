// A plan as an administrator or a service operation gives it, checked before it is signed: its inline contents'
// digests filled in, its paths and units within what the node agents manage.
import { createHash } from 'node:crypto';
import { ConflictError, ValidationError, type CoreError } from '../errors';
import { DEFAULT_MANAGED_ROOTS, isManagedUnit } from '../../wire/node-agent';
import { planProblem, type PlanArgs } from '../../wire/plan';

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** Fills in the sha256 of inline contents (refusing one given that does not match), so callers need not. */
function withDigests(args: Record<string, unknown>): PlanArgs {
  if (!Array.isArray(args.tasks)) throw new ValidationError('tasks', 'a plan is {"tasks": [...]}');
  const tasks = args.tasks.map((t: unknown, i) => {
    if (typeof t !== 'object' || t === null) return t;
    const task = { ...(t as Record<string, unknown>) };
    let bytes: Buffer | undefined;
    if ((task.kind === 'file.write' || task.kind === 'unit.write') && typeof task.content === 'string')
      bytes = Buffer.from(task.content, 'utf8');
    if (task.kind === 'file.write' && typeof task.content_base64 === 'string' && task.content === undefined)
      bytes = Buffer.from(task.content_base64, 'base64');
    if (bytes) {
      const digest = sha256(bytes);
      if (task.sha256 !== undefined && task.sha256 !== digest)
        throw new ValidationError('tasks', `task ${i}: sha256 ${JSON.stringify(task.sha256)} is not the digest of its content (${digest})`);
      task.sha256 = digest;
    }
    return task;
  });
  return { ...args, tasks } as unknown as PlanArgs;
}

/** A plan as given, checked against the managed roots and units, its inline contents' digests filled in. */

export function checkedPlan(args: unknown): Record<string, unknown> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new ValidationError('tasks', 'a plan is {"tasks": [...]}');
  const plan = withDigests(args as Record<string, unknown>);
  const problem = planProblem(plan, DEFAULT_MANAGED_ROOTS, isManagedUnit);
  if (problem) throw new ValidationError('tasks', problem);
  return plan as unknown as Record<string, unknown>;
}

export const rawPlanRefused = (profile: string): CoreError =>
  new ConflictError(
    'raw_plan_refused',
    `the ${profile} profile requires four eyes: a raw plan cannot be sent to its hosts, only service operations with their approvals`,
  );
