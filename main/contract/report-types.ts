// The shape of a signed acceptance report: one line per check actually run (ReportLine, from checks/), PASS /
// WARN / FAIL / BLOCKED, each with the evidence observed when it ran. Shared by the service, the routes and the HTML,
// and declared as schemas: the report routes answer them.
import { authorFields } from './records';
import { z } from './zod';
import { REPORT_VERDICTS, reportLineSchema, type ReportVerdict } from './check-types';

/** The verdict of a report: FAIL if a line failed, else BLOCKED if one could not run, else PASS. */
export type Verdict = ReportVerdict;

/** The payload the manager signs (type "report"). */
export const reportBodySchema = z.object({
  type: z.literal('report'),
  v: z.literal(1),
  key_id: z.string(),
  report_id: z.string(),
  cluster_id: z.string(),
  cluster_name: z.string(),
  tenant: z.string(),
  ...authorFields,
  verdict: z.enum(REPORT_VERDICTS),
  lines: z.array(reportLineSchema),
  manager_version: z.string(),
  /** sha256 (hex, all 64 digits) of the 32-byte Ed25519 public key that signed; key_id is its first 16. */
  key_fingerprint: z.string(),
});
export type ReportBody = z.infer<typeof reportBodySchema>;

export const signedReportSchema = z.object({ payload: reportBodySchema, signature: z.string() });
export type SignedReport = z.infer<typeof signedReportSchema>;

/** A report as listed (and as its row is stored beside the signed document). */
export const reportSummarySchema = z.object({
  id: z.string(),
  cluster_id: z.string(),
  cluster_name: z.string(),
  created_at: z.string(),
  verdict: z.enum(REPORT_VERDICTS),
  key_id: z.string(),
});
export type ReportSummary = z.infer<typeof reportSummarySchema>;
