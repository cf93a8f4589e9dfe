// The one error of the client: the server's stable code (or one of the client's own), the HTTP status and the
// offending field. Stores keep only ApiErrors.
import type { ApiErrorBody } from '../../../preload/api';
import type { ClientErrorCode } from './types';

/** A failed call: the server's stable error code, the HTTP status (0 when no response), the offending field. */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly field: string | undefined;
  readonly details: unknown;

  constructor(init: { code: string; status: number; message: string; field?: string; details?: unknown }) {
    super(init.message);
    this.name = 'ApiError';
    this.code = init.code;
    this.status = init.status;
    this.field = init.field;
    this.details = init.details;
  }

  /** Builds the error of a response with status >= 400 from its body (an ApiErrorBody, or anything else). */
  static fromResponse(status: number, body: unknown): ApiError {
    if (isApiErrorBody(body)) {
      const { code, message, field, details } = body.error;
      return new ApiError({ code, status, message, field, details });
    }
    return new ApiError({
      code: status === 401 ? 'unauthenticated' : status >= 500 ? 'internal' : 'bad_response',
      status,
      message: typeof body === 'string' && body.length > 0 ? body.slice(0, 500) : `HTTP ${status}`,
    });
  }

  static client(code: ClientErrorCode, message: string): ApiError {
    return new ApiError({ code, status: 0, message });
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/** Turns anything thrown into an ApiError (stores keep only ApiErrors). */
export function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  if (isApiErrorBody(e)) return ApiError.fromResponse(0, e);
  const message = e instanceof Error ? e.message : String(e);
  return ApiError.client('bridge_error', message);
}

export function isApiErrorBody(x: unknown): x is { error: Omit<ApiErrorBody['error'], 'code'> & { code: string } } {
  if (typeof x !== 'object' || x === null || !('error' in x)) return false;
  const err = (x as { error: unknown }).error;
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { code?: unknown }).code === 'string' &&
    typeof (err as { message?: unknown }).message === 'string'
  );
}
