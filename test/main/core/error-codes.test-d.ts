// Type test (checked by `npm run typecheck`): an error takes only a code of the table, so a code without a
// status cannot be thrown. Each @ts-expect-error fails the typecheck if the line it marks compiles.
import { CoreError, ConflictError } from '../../../main/core/errors';
import { ApiError } from '../../../main/core/http/api-error';
import type { ErrorCode } from '../../../main/contract/error-codes';

export const known: CoreError = new CoreError('profile_blocked', 'the profile is blocked');
export const withDefaultMessage: ApiError = new ApiError('not_found');

// @ts-expect-error a code that is not in ERROR_CODES has no status
export const unknown = new CoreError('profile_blokced', 'typo');
// @ts-expect-error the same for the API layer's own errors
export const unknownApi = new ApiError('no_such_code', 'x');
// @ts-expect-error and for a conflict
export const unknownConflict = new ConflictError('taken', 'x');
// @ts-expect-error a status is not a code: it comes from the table
export const statusGiven = new ApiError(404, 'not_found', 'x');

export const code: ErrorCode = 'approval_required';
