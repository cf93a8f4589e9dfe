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
  mfa_code_invalid: 401,
  mfa_token_invalid: 401,
  mfa_enrollment_required: 403,
  mfa_already_enrolled: 409,
  mfa_enrollment_missing: 409,
  forbidden: 403,
  csrf_missing: 403,
  not_found: 404,
  method_not_allowed: 405,
  name_taken: 409,
  conflict: 409,
  setup_done: 409,
  key_active: 409,
  body_too_large: 413,
  rate_limited: 429,
  token_expired: 401,
  token_revoked: 401,
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
  // The lifecycle gate: a blocked profile, a failed preflight, a missing or unusable approval.
  profile_blocked: 409,
  preflight_failed: 409,
  approval_required: 403,
  approval_not_found: 404,
  approval_self: 403,
  approval_decided: 409,
  approval_not_approved: 409,
  approval_used: 409,
  approval_expired: 409,
  approval_wrong_user: 403,
  approval_wrong_target: 409,
  already_stopped: 409,
  not_stopped: 409,
  not_running: 409,
  rollback_unavailable: 409,
  desired_state_changed: 409,
  approval_needs_session: 403,
  backup_modified: 409,
};

export interface ErrorBody {
  error: { code: string; message: string; field?: string; details?: unknown };
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof ValidationError) return new ApiError(400, error.code, error.message, error.field);
  if (error instanceof CoreError)
    return new ApiError(STATUS_BY_CODE[error.code] ?? 500, error.code, error.message, undefined, error.details);
  return new ApiError(500, 'internal', 'internal error; the manager log has the details');
}

export function errorBody(e: ApiError): ErrorBody {
  const error: ErrorBody['error'] = { code: e.code, message: e.message };
  if (e.field !== undefined) error.field = e.field;
  if (e.details !== undefined) error.details = e.details;
  return { error };
}
