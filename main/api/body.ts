// Reading request bodies: the API accepts JSON objects only; their fields are read by the names the route's
// contract declares and handed to the core as `unknown`, which checks each one.
import { ApiError } from './api-error';
import type { IncomingBody } from './router';

/** The declared fields of a body, each still unchecked. */
export type Fields<B> = { [K in keyof NonNullable<B>]?: unknown };

export function objectBody<B>(body: IncomingBody<B>): Fields<B> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ApiError('bad_request', 'the request body must be a JSON object');
  return body as Fields<B>;
}

export function stringField<F>(body: F, field: keyof F & string): string {
  const v = (body as Record<string, unknown>)[field];
  if (typeof v !== 'string' || v.length === 0) throw new ApiError('invalid_field', `${field} is required (a string)`, field);
  return v;
}
