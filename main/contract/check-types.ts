// The two forms a check reports in: a CheckResult (profile rules, preflight: pass / warn / fail, and whether it
// stops the operation) and a ReportLine of the acceptance report (PASS / FAIL / BLOCKED with its evidence).
import type { Bilingual } from './bilingual';

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

export const LINE_STATUSES = ['PASS', 'FAIL', 'BLOCKED'] as const;
/** PASS: ran and conforms. FAIL: ran and does not conform. BLOCKED: could not run (the reason says why). */
export type LineStatus = (typeof LINE_STATUSES)[number];

/** What a line saw: what was run and when, the observed values, and for FAIL or BLOCKED the reason. */
export interface Evidence {
  /** What was run (a request, a handshake, a query), in words a reader can repeat. */
  method: string;
  /** When it ran (RFC 3339 UTC). */
  at: string;
  reason?: Bilingual;
  [observed: string]: unknown;
}

export interface ReportLine {
  id: string;
  title: Bilingual;
  status: LineStatus;
  evidence: Evidence;
  ran_at: string;
}
