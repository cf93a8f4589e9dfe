// Acceptance reports: run one (a signed report comes back), list them, read one as signed JSON or as HTML in
// English or French; and the internal mirror the acceptance checks images against. Declared schema first.
import { z } from './zod';
import type { RoutesOf } from './route';
import { LIMIT_RANGE, queryText } from './query';
import { queryWholeNumber } from './query-numbers';
import { reportSummarySchema, signedReportSchema } from './report-types';

/** The signed report document is defined once, beside its signer; the API carries it as is. */
export type { ReportBody, ReportSummary, SignedReport, Verdict } from './report-types';

export const REPORT_LANGUAGES = ['en', 'fr'] as const;
export type ReportLanguage = (typeof REPORT_LANGUAGES)[number];

export const mirrorSettingsSchema = z.object({
  url: z.string().nullable(),
  ca_pem: z.string().nullable(),
});
export type MirrorSettings = z.infer<typeof mirrorSettingsSchema>;

/** Whether the URL is an https:// one without credentials and the PEM a readable certificate, the core judges. */
export const mirrorSettingsRequestSchema = z.object({
  url: z
    .string({ error: 'url is required, e.g. https://mirror.internal:5000' })
    .min(1, 'url is required, e.g. https://mirror.internal:5000'),
  ca_pem: z.string({ error: 'ca_pem is the PEM text of the mirror CA certificate' }).nullish(),
});
export type MirrorSettingsRequest = z.input<typeof mirrorSettingsRequestSchema>;

export const reportQuerySchema = z.object({
  cluster_id: queryText('cluster_id'),
  limit: queryWholeNumber('limit', LIMIT_RANGE),
});

export const reportRouteSchemas = {
  'POST /api/v1/clusters/:id/acceptance': { result: signedReportSchema, status: 201 },
  'GET /api/v1/reports': { query: reportQuerySchema, result: z.object({ items: z.array(reportSummarySchema) }) },
  'GET /api/v1/reports/:id': { result: signedReportSchema },
  'GET /api/v1/reports/:id/html': {
    query: z.object({
      lang: z.enum(REPORT_LANGUAGES, { error: `lang must be one of ${REPORT_LANGUAGES.join(', ')}` }).default('en'),
    }),
    result: z.string(),
    media: 'text/html; charset=utf-8',
  },
  'GET /api/v1/settings/mirror': { result: mirrorSettingsSchema },
  'PUT /api/v1/settings/mirror': { body: mirrorSettingsRequestSchema, result: mirrorSettingsSchema },
} as const;

export type ReportRoutes = RoutesOf<typeof reportRouteSchemas>;
