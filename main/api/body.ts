// Reading request bodies: the API accepts JSON objects only, with typed fields.
import { ApiError } from './api-error';

export function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ApiError('bad_request', 'the request body must be a JSON object');
  return body as Record<string, unknown>;
}

export function stringField(body: Record<string, unknown>, field: string): string {
  const v = body[field];
  if (typeof v !== 'string' || v.length === 0) throw new ApiError('invalid_field', `${field} is required (a string)`, field);
  return v;
}
