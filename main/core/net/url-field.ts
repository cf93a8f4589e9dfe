// A URL that a request gives in one of its fields, read alike wherever one is taken (the mirror's, the gateway's):
// what each place then asks of it (https, no credentials, a path or none) is its own.
import { ValidationError } from '../errors';

/** `input` as a URL; a ValidationError naming `field` when it is missing (`example` shows one) or not a URL. */
export function urlField(field: string, input: unknown, example: string): URL {
  if (typeof input !== 'string' || input.length === 0) throw new ValidationError(field, `${field} is required, e.g. ${example}`);
  try {
    return new URL(input);
  } catch {
    throw new ValidationError(field, `${field} is not a URL: ${input}`);
  }
}
