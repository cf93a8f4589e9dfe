// Every certificate the product issued, in one list sorted by expiry (issue 34, "Seeing it"): the manager CA's
// (agents, console, gateway) and each cluster's service CA's. Declared schema first: the core's fleet view is this
// type. Public facts only: no certificate carries its key here.
import { queryText } from './query';
import { queryWholeNumber } from './query-numbers';
import { z } from './zod';
import type { RoutesOf } from './route';

/** Under this many days left, a certificate in use is flagged `expiring` (the alert's threshold). */
export const CERTIFICATE_EXPIRING_DAYS = 14;

export const fleetCertificateKinds = ['agent', 'node-agent', 'service', 'console', 'gateway'] as const;
export type FleetCertificateKind = (typeof fleetCertificateKinds)[number];

/** issued: in use; superseded: replaced by a newer one, still valid; expired: past its not-after, never revoked. */
export const fleetCertificateStates = ['issued', 'superseded', 'revoked', 'expired'] as const;
export type FleetCertificateState = (typeof fleetCertificateStates)[number];

export const fleetCertificateSchema = z.object({
  serial: z.string(),
  kind: z.enum(fleetCertificateKinds),
  cluster_id: z.string().nullable(),
  host_id: z.string().nullable(),
  /** The catalog service it serves; null for any other kind. */
  service: z.string().nullable(),
  subject: z.string(),
  /** Its subject alternative names; null where the ledger did not record them (console, gateway). */
  sans: z.array(z.string()).nullable(),
  /** Which CA signed it: the manager's, or the cluster's service CA (with that CA's serial). */
  issuer: z.object({ ca: z.enum(['manager', 'service']), serial: z.string().nullable() }),
  not_after: z.string(),
  /** Whole days until not_after, negative once past. */
  days_left: z.number(),
  state: z.enum(fleetCertificateStates),
  /** In use (issued or expired, neither superseded nor revoked) with under 14 days left. */
  expiring: z.boolean(),
});
export type FleetCertificate = z.infer<typeof fleetCertificateSchema>;

export const certificatesQuerySchema = z.object({
  cluster_id: queryText('cluster_id'),
  /** Only the certificates whose not-after falls within this many days (those past it included). */
  expiring_within_days: queryWholeNumber('expiring_within_days', { min: 0, max: 36500 }),
});
export type CertificatesQuery = z.infer<typeof certificatesQuerySchema>;

/** What a look of the renewal schedule decided for a service with certificates due (core/services/renewal-schedule.ts). */
export const renewalOutcomes = ['started', 'running', 'waiting', 'refused', 'skipped'] as const;
export const renewalDecisionSchema = z.object({
  cluster_id: z.string(),
  service: z.string(),
  /** The hosts whose certificates are due. */
  hosts: z.array(z.string()),
  outcome: z.enum(renewalOutcomes),
  /** The renewal started, or the operation already running on the service. */
  operation_id: z.string().optional(),
  /** Why nothing started: what failed last, what runs, the state the service is in. */
  reason: z.string().optional(),
  /** Waiting after failures: when the next try may start. */
  retry_at: z.string().optional(),
});
export type RenewalDecision = z.infer<typeof renewalDecisionSchema>;

/** Runs the schedule now; `due_within_days` renews early what falls due within that many days (before a freeze, say). */
export const renewalRunSchema = z.object({
  due_within_days: z
    .number({ error: 'due_within_days is a whole number of days from 0 to 90' })
    .int({ error: 'due_within_days is a whole number of days from 0 to 90' })
    .min(0, { error: 'due_within_days is a whole number of days from 0 to 90' })
    .max(90, { error: 'due_within_days is a whole number of days from 0 to 90' })
    .optional(),
});

export const certificateRouteSchemas = {
  'GET /api/v1/certificates': {
    query: certificatesQuerySchema,
    result: z.object({ items: z.array(fleetCertificateSchema) }),
  },
  'POST /api/v1/certificates/renewals': {
    body: renewalRunSchema,
    result: z.object({ items: z.array(renewalDecisionSchema) }),
  },
} as const;

export type CertificateRoutes = RoutesOf<typeof certificateRouteSchemas>;
