// The error table: every code answers with its own status over the API, whichever layer threw it.
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, isErrorCode, statusOf, type ErrorCode } from '../../../main/contract/error-codes';
import { CoreError, ValidationError } from '../../../main/core/errors';
import { ApiError, toApiError } from '../../../main/core/http/api-error';

describe('the error codes table', () => {
  it('gives each code a status and a message, used when no other is given', () => {
    for (const [code, entry] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.message.length).toBeGreaterThan(0);
      const e = toApiError(new CoreError(code as ErrorCode));
      expect({ status: e.status, code: e.code, message: e.message }).toEqual({ status: entry.status, code, message: entry.message });
    }
  });

  it('is what the API maps core errors by, and a field makes any code a 400', () => {
    expect(toApiError(new CoreError('approval_required', 'x')).status).toBe(403);
    expect(toApiError(new CoreError('api_unreachable', 'x')).status).toBe(502);
    expect(toApiError(new ValidationError('name', 'bad')).status).toBe(400);
    expect(new ApiError('mfa_code_invalid', 'wrong').status).toBe(401);
    expect(new ApiError('mfa_code_invalid', 'wrong', 'code').status).toBe(400);
    expect(statusOf('account_locked')).toBe(423);
  });

  it('turns anything else into a 500 internal without its text', () => {
    const e = toApiError(new Error('secret detail'));
    expect([e.status, e.code, e.message.includes('secret')]).toEqual([500, 'internal', false]);
    expect(isErrorCode('internal')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
  });
});
