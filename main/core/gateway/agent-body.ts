// An agent's request body read with its schema of the wire contract (wire/agent-requests.ts): the typed value,
// or the gateway's 400 bad_request naming the JSON path of the first faulty value and its rule.
import type { z } from 'zod';
import { CoreError } from '../errors';
import { firstIssue } from '../http/zod-issue';

/** `value` parsed by `schema`; `at` is where it stands in the body (a receipt of a batch: ['receipts', 2]). */
export function agentBody<T>(schema: z.ZodType<T>, value: unknown, at: readonly PropertyKey[] = []): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const { path, rule } = firstIssue(parsed.error, at);
  throw new CoreError('bad_request', path === '' ? rule : `${path}: ${rule}`);
}
