// Acceptance reports: run one (a signed report comes back), list them, read one as signed JSON or as HTML in
// English or French; and the internal mirror the acceptance checks images against.
import type { SignedReport, ReportSummary } from './report-types';

/** The signed report document is defined once, beside its signer; the API carries it as is. */
export type { ReportBody, ReportSummary, SignedReport, Verdict } from './report-types';

export type ReportLanguage = 'en' | 'fr';

export interface MirrorSettings {
  url: string | null;
  ca_pem: string | null;
}

export interface MirrorSettingsRequest {
  url: string;
  ca_pem?: string | null;
}

export interface ReportRoutes {
  'POST /api/v1/clusters/:id/acceptance': { result: SignedReport };
  'GET /api/v1/reports': { query: { cluster_id?: string; limit?: number }; result: { items: ReportSummary[] } };
  'GET /api/v1/reports/:id': { result: SignedReport };
  'GET /api/v1/reports/:id/html': { query: { lang?: ReportLanguage }; result: string };
  'GET /api/v1/settings/mirror': { result: MirrorSettings };
  'PUT /api/v1/settings/mirror': { body: MirrorSettingsRequest; result: MirrorSettings };
}
