// Recovery codes: one-time second factors for a lost authenticator. Each carries about 79 random bits, so a
// plain sha256 is enough to keep them unusable from a copy of the database.
import { createHash, randomInt } from 'node:crypto';

export const RECOVERY_CODE_COUNT = 10;
// No 0/o, 1/l/i: the codes are copied by hand from paper.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUPS = 4;
const GROUP_LENGTH = 4;

export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  const one = (): string =>
    Array.from({ length: GROUPS }, () => Array.from({ length: GROUP_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')).join(
      '-',
    );
  return Array.from({ length: count }, one);
}

/** Case, spaces and dashes do not matter when a code is typed back. */
export const normalizeRecoveryCode = (code: string): string => code.toLowerCase().replace(/[\s-]+/g, '');

export const looksLikeRecoveryCode = (code: string): boolean =>
  new RegExp(`^[${ALPHABET}]{${GROUPS * GROUP_LENGTH}}$`).test(normalizeRecoveryCode(code));

export const recoveryCodeHash = (code: string): string => createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');
