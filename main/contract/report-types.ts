// The shape of a signed acceptance report: one line per check actually run (ReportLine, from checks/), PASS /
// FAIL / BLOCKED, each with the evidence observed when it ran. Shared by the service, the routes and the HTML.
import type { LineStatus, ReportLine } from './check-types';

/** The verdict of a report: FAIL if a line failed, else BLOCKED if one could not run, else PASS. */
export type Verdict = LineStatus;

/** The payload the manager signs (type "report"). */
export interface ReportBody {
  type: 'report';
  v: 1;
  key_id: string;
  report_id: string;
  cluster_id: string;
  cluster_name: string;
  tenant: string;
  created_at: string;
  created_by: string;
  verdict: Verdict;
  lines: ReportLine[];
  manager_version: string;
  /** sha256 (hex, all 64 digits) of the 32-byte Ed25519 public key that signed; key_id is its first 16. */
  key_fingerprint: string;
}

export interface SignedReport {
  payload: ReportBody;
  signature: string;
}

export interface ReportSummary {
  id: string;
  cluster_id: string;
  cluster_name: string;
  created_at: string;
  verdict: Verdict;
  key_id: string;
}
