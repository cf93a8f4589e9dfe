// What a reader of the command list may see of a command. The list is open to viewers, but some commands carry
// what the console shows only to the roles that may ask for it: a journal read's text (unredacted logs, which the
// Logs tab and the support archive give operators only) and the rendered configuration files and units a plan
// writes, and what the programs a plan runs printed (a backup tool's stdout and stderr, echoed in a failed task's
// message). For a reader below that role those parts are withheld and the view says which.
import { roleAtLeast } from '../accounts/accounts';
import type { Role } from '../accounts/accounts-tables';
import { OP_JOURNAL_TAIL, OP_PLAN_EXECUTE } from '../../wire/node-agent';
import type { WithheldPart } from '../../contract/commands';

/**
 * The parts a view may lack (the contract's word list): a command's result, the contents of the files and units
 * its plan writes, or what the programs its plan runs printed.
 */
export type { WithheldPart };

interface Withholding {
  /** The least role that sees the command whole: the one that may run it. */
  role: Role;
  parts: WithheldPart[];
}

const WITHHOLDING: Readonly<Record<string, Withholding>> = {
  [OP_JOURNAL_TAIL]: { role: 'operator', parts: ['result'] },
  [OP_PLAN_EXECUTE]: { role: 'operator', parts: ['contents'] },
};

/** The fields of a task that hold what a file or unit will contain (its sha256 stays: it names the content). */
const CONTENT_FIELDS = ['content', 'content_base64'] as const;

function withoutContents(args: unknown): unknown {
  const tasks = (args as { tasks?: unknown } | null)?.tasks;
  if (!Array.isArray(tasks)) return args;
  return {
    ...(args as object),
    tasks: tasks.map((t: unknown) => {
      if (typeof t !== 'object' || t === null) return t;
      const copy = { ...(t as Record<string, unknown>) };
      for (const f of CONTENT_FIELDS) delete copy[f];
      return copy;
    }),
  };
}

/**
 * Tasks whose output and message carry what a program printed: the agent keeps a command's last stdout and
 * stderr as its output and puts the error's text in a failure's message (its code stays: it says what failed).
 * A file read (a backup carried to a restore's other members) reports the file's bytes: withheld alike.
 */
const PRINTING_TASKS: ReadonlySet<string> = new Set(['command.run', 'file.read']);
const PRINTED_OUTPUT_ROLE: Role = 'operator';

interface TaskShape {
  kind?: unknown;
  output?: unknown;
  message?: unknown;
}

const printed = (t: unknown): boolean => typeof t === 'object' && t !== null && PRINTING_TASKS.has(String((t as TaskShape).kind));

function withoutPrinted<T>(t: T): T {
  return printed(t) ? ({ ...(t as object), output: null, message: null } as T) : t;
}

/** A plan's result (its tasks' outcomes) without what its programs printed; anything else as it is. */
function resultWithoutPrinted(result: unknown): unknown {
  const tasks = (result as { tasks?: unknown } | null)?.tasks;
  if (!Array.isArray(tasks)) return result;
  return { ...(result as object), tasks: tasks.map(withoutPrinted) };
}

/** The command as `reader` may see it: whole for the roles that may run it, else without the withheld parts. */
export function visibleTo<V extends { op: string; args: unknown; result: unknown }>(
  view: V,
  reader: Role,
): V & { withheld?: WithheldPart[] } {
  const rule = WITHHOLDING[view.op];
  if (!rule || roleAtLeast(reader, rule.role)) return view;
  const tasks = (view.args as { tasks?: unknown } | null)?.tasks;
  const runsPrograms = rule.parts.includes('contents') && Array.isArray(tasks) && tasks.some(printed);
  return {
    ...view,
    ...(rule.parts.includes('result') ? { result: null } : {}),
    ...(rule.parts.includes('contents') ? { args: withoutContents(view.args) } : {}),
    ...(runsPrograms ? { result: resultWithoutPrinted(view.result) } : {}),
    withheld: runsPrograms ? [...rule.parts, 'output'] : rule.parts,
  };
}

/**
 * A plan followed task by task (GET …/plan, an operation's plans) as `reader` may see it: below an operator, the
 * tasks that run a program have neither output nor message, and the plan says it.
 */
export function planVisibleTo<P extends { tasks: TaskShape[] }>(plan: P, reader: Role): P & { withheld?: 'output'[] } {
  if (roleAtLeast(reader, PRINTED_OUTPUT_ROLE) || !plan.tasks.some(printed)) return plan;
  return { ...plan, tasks: plan.tasks.map(withoutPrinted), withheld: ['output'] };
}

/**
 * An operation (a service's install, backup, restore…) with each of its plans as `reader` may see it; its message
 * quotes a failed task's, so it goes too when that task ran a program.
 */
interface OperationShape {
  message: string | null;
  phases: { plans: { failed_task: string | null; tasks: (TaskShape & { id: string })[] }[] }[];
}

/** Whether an operation's message quotes a failed task that ran a program (so what the program printed). */
const quotesPrinted = (operation: OperationShape): boolean =>
  operation.phases.some((phase) => phase.plans.some((p) => p.tasks.some((task) => task.id === p.failed_task && printed(task))));

export function operationVisibleTo<O extends OperationShape>(operation: O, reader: Role): O {
  return {
    ...operation,
    ...(quotesPrinted(operation) && !roleAtLeast(reader, PRINTED_OUTPUT_ROLE) ? { message: null } : {}),
    phases: operation.phases.map((phase) => ({ ...phase, plans: phase.plans.map((p) => planVisibleTo(p, reader)) })),
  };
}

/**
 * A backup set as `reader` may see it: a failed set's message quotes its failed operation's, so below an operator
 * it goes when that one quotes what a program printed, and the set says it. `operation` reads an operation whole.
 */
export function backupSetVisibleTo<S extends { message: string | null; operations: { id: string; state: string }[] }>(
  set: S,
  reader: Role,
  operation: (id: string) => OperationShape,
): S & { withheld?: 'output'[] } {
  if (set.message === null || roleAtLeast(reader, PRINTED_OUTPUT_ROLE)) return set;
  const quoting = set.operations.some((o) => o.state === 'failed' && quotesPrinted(operation(o.id)));
  return quoting ? { ...set, message: null, withheld: ['output'] } : set;
}
