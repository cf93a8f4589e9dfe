// Errors of the core: each carries a stable code of the table in main/contract/error-codes.ts (which gives its HTTP status),
// passed on unchanged by the API, the gateway and the CLI.
import { ERROR_CODES, type ErrorCode } from '../contract/error-codes';

export type { ErrorCode };

/** C: the codes a kind of error may carry (a subset of the table), so a thrower cannot pick another's. */
export class CoreError<C extends ErrorCode = ErrorCode> extends Error {
  constructor(
    readonly code: C,
    message: string = ERROR_CODES[code].message,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'CoreError';
  }
}

/** A request that cannot be carried out as given (maps to HTTP 400). */
export class ValidationError extends CoreError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super('invalid_field', message, { field });
    this.name = 'ValidationError';
  }
}

export class NotFoundError extends CoreError {
  constructor(what: string, id: string) {
    super('not_found', `${what} ${JSON.stringify(id)} not found`);
    this.name = 'NotFoundError';
  }
}

/** `row` when there is one; else a NotFoundError naming `what` and `id` (a store or a catalog answered none). */
export function found<T extends object>(row: T | null | undefined, what: string, id: string): T {
  if (!row) throw new NotFoundError(what, id);
  return row;
}

export class ConflictError extends CoreError {
  constructor(code: ErrorCode, message: string) {
    super(code, message);
    this.name = 'ConflictError';
  }
}
