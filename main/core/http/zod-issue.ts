// Why a value failed its zod schema, read one way for the console API and the agent gateway: the JSON path of
// the first faulty value and its rule. Each answers it in its own words (parse-input.ts, gateway/agent-body.ts).
import type { z } from 'zod';

export interface FirstIssue {
  /** `hosts[1].address`; empty when the value as a whole is refused. */
  path: string;
  rule: string;
}

/** `at` is where the parsed value stands in the request (a receipt of a batch: ['receipts', 2]). */
export function firstIssue(error: z.ZodError, at: readonly PropertyKey[] = []): FirstIssue {
  const issue = error.issues[0]!;
  // A map's key refused (a unit that is not managed) holds its rule one level down.
  const rule = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
  return { path: jsonPath([...at, ...issue.path]), rule };
}

/** `['hosts', 0, 'address']` → `hosts[0].address`. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}
