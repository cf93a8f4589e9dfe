// RFC 3339 timestamps of the wire contract: UTC only ("Z"), optional fractional seconds. One strict reading
// so the manager and the agent agree to the millisecond on when a validity window opens and closes.
const RFC3339_UTC = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,9}))?Z$/;

/**
 * Milliseconds since the epoch of an RFC 3339 UTC timestamp, or null if it is not one. Offsets other than Z,
 * impossible dates (2026-02-30) and leap seconds (:60, which Date cannot represent) are refused; digits
 * beyond the millisecond are truncated.
 */
export function parseTimestamp(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const m = RFC3339_UTC.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  // setUTCFullYear, not Date.UTC, which would read years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  date.setUTCHours(hour, minute, second, m[7] ? Number(m[7].padEnd(3, '0').slice(0, 3)) : 0);
  return date.getTime();
}

/** The RFC 3339 UTC form of a date, with milliseconds (Date.prototype.toISOString). */
export function formatTimestamp(date: Date): string {
  return date.toISOString();
}
