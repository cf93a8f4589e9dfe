// The shape of a signed acceptance report: one line per check actually run, PASS / FAIL / BLOCKED, each with
// the evidence observed when it ran. Shared by the checks, the service, the routes and the HTML rendering.

export const LINE_STATUSES = ['PASS', 'FAIL', 'BLOCKED'] as const;
/** PASS: ran and conforms. FAIL: ran and does not conform. BLOCKED: could not run (the reason says why). */
export type LineStatus = (typeof LINE_STATUSES)[number];
export type Verdict = LineStatus;

/** A text in both languages of the report; the HTML picks one, the JSON keeps both. */
export interface Bilingual {
  en: string;
  fr: string;
}

export const bilingual = (en: string, fr: string): Bilingual => ({ en, fr });

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
