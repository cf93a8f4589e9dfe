// How core failures become API answers: the status of each code is in contract/error-codes.ts, the same over IPC
// and HTTPS.
import { CoreError, ValidationError } from '../errors';
import { ERROR_CODES, statusOf, type ErrorCode } from '../../contract/error-codes';

/** A failure the API layer itself finds (no session, wrong route, a field it reads); its status is the code's. */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string = ERROR_CODES[code].message,
    readonly field?: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = statusOf(code, field);
  }
}

export interface ErrorBody {
  error: { code: string; message: string; field?: string; details?: unknown };
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof ValidationError) return new ApiError(error.code, error.message, error.field);
  if (error instanceof CoreError) return new ApiError(error.code, error.message, undefined, error.details);
  return new ApiError('internal');
}

export function errorBody(e: ApiError): ErrorBody {
  const error: ErrorBody['error'] = { code: e.code, message: e.message };
  if (e.field !== undefined) error.field = e.field;
  if (e.details !== undefined) error.details = e.details;
  return { error };
}
