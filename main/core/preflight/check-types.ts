// One check as the profile rules and the preflight report it: what ran, what it saw, and whether it stops
// the operation. The acceptance report turns these into its PASS / FAIL / BLOCKED lines.
import type { Bilingual } from '../reports/report-types';

export type CheckStatus = 'pass' | 'warn' | 'fail';

export interface CheckResult {
  /** Stable id, e.g. `dns.forward`, `tls.gateway`, `profile.syslog_remote_audit`. */
  id: string;
  title: Bilingual;
  status: CheckStatus;
  /** A failed critical check fails the operation before anything is written; a warning never does. */
  critical: boolean;
  /** Why it failed or warned (null when it passed). */
  reason: Bilingual | null;
  /** What was run and what was observed: `method` in words a reader can repeat, then the values seen. */
  evidence: { method: string; [observed: string]: unknown };
  ran_at: string;
}
