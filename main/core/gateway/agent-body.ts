// An agent's request body read with its schema of the wire contract (wire/agent-requests.ts): the typed value,
// or the gateway's 400 bad_request naming the JSON path of the first faulty value and its rule.
import type { z } from 'zod';
import { CoreError } from '../errors';
import { jsonPath } from '../http/parse-input';

/** `value` parsed by `schema`; `at` is where it stands in the body (a receipt of a batch: ['receipts', 2]). */
export function agentBody<T>(schema: z.ZodType<T>, value: unknown, at: readonly PropertyKey[] = []): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  // A map's key refused (a unit that is not managed) holds its rule one level down.
  const rule = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
  const path = jsonPath([...at, ...issue.path]);
  throw new CoreError('bad_request', path === '' ? rule : `${path}: ${rule}`);
}
