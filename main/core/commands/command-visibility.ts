// What a reader of the command list may see of a command. The list is open to viewers, but some commands carry
// what the console shows only to the roles that may ask for it: a journal read's text (unredacted logs, which the
// Logs tab and the support archive give operators only) and the rendered configuration files and units a plan
// writes. For a reader below that role those parts are withheld and the view says which.
import { roleAtLeast } from '../accounts/accounts';
import type { Role } from '../store/accounts-tables';
import { OP_JOURNAL_TAIL, OP_PLAN_EXECUTE } from '../../wire/node-agent';

/** The parts a view may lack: a command's result, or the contents of the files and units its plan writes. */
export type WithheldPart = 'result' | 'contents';

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

/** The command as `reader` may see it: whole for the roles that may run it, else without the withheld parts. */
export function visibleTo<V extends { op: string; args: unknown; result: unknown }>(
  view: V,
  reader: Role,
): V & { withheld?: WithheldPart[] } {
  const rule = WITHHOLDING[view.op];
  if (!rule || roleAtLeast(reader, rule.role)) return view;
  return {
    ...view,
    ...(rule.parts.includes('result') ? { result: null } : {}),
    ...(rule.parts.includes('contents') ? { args: withoutContents(view.args) } : {}),
    withheld: rule.parts,
  };
}
