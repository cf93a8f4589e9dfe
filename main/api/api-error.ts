// How core failures become API answers: one status per stable code, the same over IPC and HTTPS.
import { CoreError, ValidationError } from '../core/errors';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const STATUS_BY_CODE: Record<string, number> = {
  invalid_field: 400,
  invalid_json: 400,
  bad_request: 400,
  unauthenticated: 401,
  invalid_credentials: 401,
  setup_token_invalid: 401,
  ticket_invalid: 401,
  forbidden: 403,
  csrf_missing: 403,
  not_found: 404,
  method_not_allowed: 405,
  name_taken: 409,
  conflict: 409,
  setup_done: 409,
  key_active: 409,
  payload_too_large: 413,
  account_locked: 423,
  kubeconfig_invalid: 400,
  kubeconfig_no_token: 400,
  not_registered: 409,
  api_unreachable: 502,
  tls_untrusted: 502,
  token_refused: 502,
  permission_missing: 422,
  api_version_unsupported: 422,
  api_error: 502,
};

export interface ErrorBody {
  error: { code: string; message: string; field?: string; details?: unknown };
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof ValidationError) return new ApiError(400, error.code, error.message, error.field);
  if (error instanceof CoreError) return new ApiError(STATUS_BY_CODE[error.code] ?? 500, error.code, error.message, undefined, error.details);
  return new ApiError(500, 'internal', 'internal error; the manager log has the details');
}

export function errorBody(e: ApiError): ErrorBody {
  const error: ErrorBody['error'] = { code: e.code, message: e.message };
  if (e.field !== undefined) error.field = e.field;
  if (e.details !== undefined) error.details = e.details;
  return { error };
}
