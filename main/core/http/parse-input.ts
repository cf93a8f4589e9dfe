// Every route has its path parameters, query and body parsed by its contract's schemas before
// its handler runs. A failure is the API's usual 400: `invalid_field` naming the JSON path of the first faulty
// value and its rule, or `bad_request` when the body is not a JSON object at all.
// The console API's rule; the gateway keeps its agents' answer, bad_request with the path in its message
// (gateway/agent-body.ts).
import type { z } from 'zod';
import { CoreError, ValidationError } from '../errors';
import type { RouteSchemas } from '../../contract/route';
import { firstIssue } from './zod-issue';

export interface ParsedInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

/** A route without a query or a body schema takes none: its handler gets `undefined` for it. */
export function parseInput(schemas: RouteSchemas, params: Record<string, string>, query: URLSearchParams, body: unknown): ParsedInput {
  return {
    params: schemas.params ? parsed(schemas.params, params) : params,
    query: schemas.query ? parsed(schemas.query, queryObject(query)) : undefined,
    body: schemas.body ? parsedBody(schemas.body, body) : undefined,
  };
}

function parsedBody(schema: z.ZodType, body: unknown): unknown {
  // Every body of the API is a JSON object (or none, where the route allows it); anything else is no request of
  // this route, whatever its fields would have been.
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  if (!isObject && !(body === undefined && schema.safeParse(undefined).success))
    throw new CoreError('bad_request', 'the request body must be a JSON object');
  return parsed(schema, body);
}

/** A query's names with their value; a name given twice keeps its first value, as `URLSearchParams.get` does. */
function queryObject(query: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of query) if (!Object.hasOwn(out, name)) out[name] = value;
  return out;
}

function parsed(schema: z.ZodType, value: unknown): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const { path, rule } = firstIssue(result.error);
  if (path === '') throw new CoreError('bad_request', rule);
  throw new ValidationError(path, rule);
}
