// The TOTP parameters against RFC 6238's published SHA-1 vectors, and the drift window around a step.
import { describe, expect, it } from 'vitest';
import { URI } from 'otpauth';
import { TOTP_PARAMS, totp, totpCodeStep, totpUri, qrSvg } from '../../../../main/core/accounts/totp';

// RFC 6238, Appendix B: the SHA-1 rows, 8 digits, 30 s steps.
const RFC_SECRET = Buffer.from('12345678901234567890', 'ascii');
const VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];
const EIGHT = { ...TOTP_PARAMS, digits: 8 };

describe('totp', () => {
  it.each(VECTORS)('matches the RFC 6238 SHA-1 vector at %i s', (t, code) => {
    expect(totp(RFC_SECRET, '', EIGHT).generate({ timestamp: t * 1000 })).toBe(code);
    expect(totpCodeStep(RFC_SECRET, code, new Date(t * 1000), EIGHT)).toBe(Math.floor(t / 30));
  });

  it.each(VECTORS)('accepts the 6-digit code (the vector truncated) at %i s', (t, code) => {
    expect(totpCodeStep(RFC_SECRET, code.slice(2), new Date(t * 1000))).toBe(Math.floor(t / 30));
  });

  it('accepts one step of drift either side and no more', () => {
    const at = new Date(1111111111 * 1000);
    const step = Math.floor(1111111111 / 30);
    const codeOf = (s: number): string => totp(RFC_SECRET, '').generate({ timestamp: s * 30_000 });
    expect(totpCodeStep(RFC_SECRET, codeOf(step - 1), at)).toBe(step - 1);
    expect(totpCodeStep(RFC_SECRET, codeOf(step + 1), at)).toBe(step + 1);
    expect(totpCodeStep(RFC_SECRET, codeOf(step - 2), at)).toBeUndefined();
    expect(totpCodeStep(RFC_SECRET, codeOf(step + 2), at)).toBeUndefined();
  });

  it('refuses codes of the wrong shape', () => {
    const at = new Date(59_000);
    expect(totpCodeStep(RFC_SECRET, '287082 ', at)).toBeUndefined();
    expect(totpCodeStep(RFC_SECRET, '94287082', at)).toBeUndefined();
    expect(totpCodeStep(RFC_SECRET, '', at)).toBeUndefined();
  });

  it('writes the otpauth URI authenticator apps read: issuer, account, SHA1, 6 digits, 30 s', () => {
    const uri = totpUri(RFC_SECRET, 'alice');
    const parsed = URI.parse(uri);
    expect(uri.startsWith('otpauth://totp/')).toBe(true);
    expect(parsed).toMatchObject({ issuer: 'Navin Console', label: 'alice', algorithm: 'SHA1', digits: 6, period: 30 });
    expect(Buffer.from(parsed.secret.bytes).equals(RFC_SECRET)).toBe(true);
  });

  it('draws the URI as an SVG QR code', async () => {
    const svg = await qrSvg(totpUri(RFC_SECRET, 'alice'));
    expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('<path');
    expect(svg).not.toContain('<script');
  });
});
