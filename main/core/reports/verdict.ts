// The verdict rule of the specification: FAIL when a line failed, else BLOCKED when a line could not run,
// else PASS (a WARN line conforms, so it passes). An empty report cannot pass: nothing was proven.
import type { LineStatus } from '../../contract/check-types';
import type { Verdict } from '../../contract/report-types';

export function verdictOf(statuses: readonly LineStatus[]): Verdict {
  if (statuses.includes('FAIL')) return 'FAIL';
  if (statuses.includes('BLOCKED') || statuses.length === 0) return 'BLOCKED';
  return 'PASS';
}

/** How many lines have each status, for the audit row and the HTML summary. */
export function statusCounts(statuses: readonly LineStatus[]): Record<LineStatus, number> {
  const counts: Record<LineStatus, number> = { PASS: 0, WARN: 0, FAIL: 0, BLOCKED: 0 };
  for (const s of statuses) counts[s] += 1;
  return counts;
}
