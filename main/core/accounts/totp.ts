// TOTP (RFC 6238) as the console uses it: the otpauth library computes codes and otpauth:// URIs; this file
// fixes the parameters authenticator apps expect, tells which time step a code belongs to, and draws the QR code.
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

export const TOTP_ISSUER = 'Navin Console';
export interface TotpParams {
  algorithm: 'SHA1';
  digits: number;
  period: number;
}
/** SHA-1, 6 digits, 30 s: the only combination every authenticator app reads from a QR code. */
export const TOTP_PARAMS: TotpParams = { algorithm: 'SHA1', digits: 6, period: 30 };
/** Time steps of clock drift accepted on either side of the current one. */
export const TOTP_DRIFT_STEPS = 1;
const SECRET_BYTES = 20;

export const newTotpSecret = (): Buffer => Buffer.from(new Secret({ size: SECRET_BYTES }).bytes);

export function totp(secret: Uint8Array, label: string, params: TotpParams = TOTP_PARAMS): TOTP {
  // A copy, so that otpauth never sees the rest of a pooled Buffer's memory.
  return new TOTP({ issuer: TOTP_ISSUER, label, ...params, secret: new Secret({ buffer: Uint8Array.from(secret).buffer }) });
}

export const totpStep = (at: Date, params: TotpParams = TOTP_PARAMS): number =>
  TOTP.counter({ period: params.period, timestamp: at.getTime() });

/** The time step `code` was made for, within the accepted drift around `at`; undefined if it matches none. */
export function totpCodeStep(secret: Uint8Array, code: string, at: Date, params: TotpParams = TOTP_PARAMS): number | undefined {
  if (!new RegExp(`^\\d{${params.digits}}$`).test(code)) return undefined;
  const delta = totp(secret, '', params).validate({ token: code, timestamp: at.getTime(), window: TOTP_DRIFT_STEPS });
  return delta === null ? undefined : totpStep(at, params) + delta;
}

export const totpBase32 = (secret: Uint8Array): string => totp(secret, '').secret.base32;

export const totpUri = (secret: Uint8Array, account: string): string => totp(secret, account).toString();

/** The URI as a QR code in SVG, for the console to show as an image. */
export const qrSvg = (text: string): Promise<string> => QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
