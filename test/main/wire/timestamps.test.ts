// RFC 3339 UTC timestamps: the one reading manager and agent share for validity windows.
import { describe, expect, it } from 'vitest';
import { formatTimestamp, parseTimestamp } from '../../../main/wire/timestamps';

describe('parseTimestamp', () => {
  it('reads UTC timestamps with and without fractional seconds, truncating below the millisecond', () => {
    expect(parseTimestamp('2026-12-02T10:00:00Z')).toBe(Date.UTC(2026, 11, 2, 10));
    expect(parseTimestamp('2026-12-02T10:00:00.5Z')).toBe(Date.UTC(2026, 11, 2, 10, 0, 0, 500));
    expect(parseTimestamp('2026-12-02T10:00:00.123999999Z')).toBe(Date.UTC(2026, 11, 2, 10, 0, 0, 123));
    expect(parseTimestamp('2028-02-29T23:59:59Z')).toBe(Date.UTC(2028, 1, 29, 23, 59, 59));
  });

  it('reads years below 100 as themselves, not as 19xx', () => {
    expect(new Date(parseTimestamp('0042-01-01T00:00:00Z')!).getUTCFullYear()).toBe(42);
  });

  it('refuses offsets, lowercase separators, impossible dates, leap seconds and non-strings', () => {
    const bad: unknown[] = [
      '2026-12-02T10:00:00+00:00',
      '2026-12-02t10:00:00z',
      '2026-12-02 10:00:00Z',
      '2027-02-29T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-12-00T00:00:00Z',
      '2026-12-02T24:00:00Z',
      '2026-12-31T23:59:60Z',
      '2026-12-02T10:00Z',
      '2026-12-02T10:00:00.Z',
      1733133600000,
      null,
    ];
    for (const text of bad) expect(parseTimestamp(text), String(text)).toBeNull();
  });

  it('formats what it parses', () => {
    const date = new Date(Date.UTC(2026, 11, 2, 10, 0, 0, 7));
    expect(parseTimestamp(formatTimestamp(date))).toBe(date.getTime());
  });
});
