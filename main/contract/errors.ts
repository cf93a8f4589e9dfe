// Every failure of the console API has this body and a stable code of the manager's error table.
import { z } from './zod';
import { ERROR_CODES, type ErrorCode } from './error-codes';

export type ApiErrorCode = ErrorCode;

const errorCodeNames = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

export const apiErrorBodySchema = z.object({
  error: z.object({
    code: z.enum(errorCodeNames),
    message: z.string(),
    /** The JSON path of the faulty field of the request, for an invalid_field. */
    field: z.string().optional(),
    details: z.unknown().optional(),
  }),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;
