// Every failure of the console API has this body and a stable code of the manager's error table.
import type { ErrorCode } from './error-codes';

export type ApiErrorCode = ErrorCode;

export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string; field?: string; details?: unknown };
}
