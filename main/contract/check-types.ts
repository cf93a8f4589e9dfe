// The two forms a check reports in: a CheckResult (profile rules, preflight: pass / warn / fail, and whether it
// stops the operation) and a ReportLine of the acceptance report (PASS / WARN / FAIL / BLOCKED with its evidence).
// Declared schema first, for the families that answer them (profiles, preflight, reports).
import { bilingualSchema } from './bilingual';
import { z } from './zod';

export const CHECK_STATUSES = ['pass', 'warn', 'fail'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** What both forms say of the check that ran: its stable id, its title in both languages, and when it ran. */
const checkRunFields = {
  /** Stable id, e.g. `dns.forward`, `tls.gateway`, `profile.syslog_remote_audit`. */
  id: z.string(),
  title: bilingualSchema,
  ran_at: z.string(),
};

export const checkResultSchema = z.object({
  ...checkRunFields,
  status: z.enum(CHECK_STATUSES),
  /** A failed critical check fails the operation before anything is written; a warning never does. */
  critical: z.boolean(),
  /** Why it failed or warned (null when it passed). */
  reason: bilingualSchema.nullable(),
  /** What was run and what was observed: `method` in words a reader can repeat, then the values seen. */
  evidence: z.looseObject({ method: z.string() }),
});
export type CheckResult = z.infer<typeof checkResultSchema>;

/** A report's verdict (spec): FAIL when a line failed, else BLOCKED when one could not run, else PASS. */
export const REPORT_VERDICTS = ['PASS', 'FAIL', 'BLOCKED'] as const;
export type ReportVerdict = (typeof REPORT_VERDICTS)[number];

/**
 * PASS: ran and conforms. WARN: ran and conforms but needs attention soon (a certificate under 14 days), so it
 * never fails the verdict. FAIL: ran and does not conform. BLOCKED: could not run (the reason says why).
 */
export const LINE_STATUSES = ['PASS', 'WARN', 'FAIL', 'BLOCKED'] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];

/** What a line saw: what was run and when, the observed values, and for WARN, FAIL or BLOCKED the reason. */
export const evidenceSchema = z.looseObject({
  /** What was run (a request, a handshake, a query), in words a reader can repeat. */
  method: z.string(),
  /** When it ran (RFC 3339 UTC). */
  at: z.string(),
  reason: bilingualSchema.optional(),
});
export type Evidence = z.infer<typeof evidenceSchema>;

export const reportLineSchema = z.object({
  ...checkRunFields,
  status: z.enum(LINE_STATUSES),
  evidence: evidenceSchema,
});
export type ReportLine = z.infer<typeof reportLineSchema>;
