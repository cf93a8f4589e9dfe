// Profiles and preflight checks: a cluster's profile evaluated now and changed by an admin, the catalog of
// profiles and their rules, the preflight run on demand and its latest result, the CAs trusted for endpoints.
// Declared schema first: the core's evaluation, catalog entry and preflight run are these types.
import { z } from './zod';
import type { RoutesOf } from './route';
import { bilingualSchema } from './bilingual';
import { CHECK_STATUSES, checkResultSchema } from './check-types';
import { profileNames } from './clusters';

export const PROFILE_STATUSES = ['compliant', 'blocked'] as const;

export const profileEvaluationSchema = z.object({
  cluster_id: z.string(),
  profile: z.enum(profileNames),
  /** Blocked when one rule fails; the rules say which and why. */
  status: z.enum(PROFILE_STATUSES),
  rules: z.array(checkResultSchema),
  four_eyes: z.boolean(),
  /** The acts that need another admin's approval under this profile (none when it does not want four eyes). */
  four_eyes_actions: z.array(z.string()),
  evaluated_at: z.string(),
});
export type ProfileEvaluation = z.infer<typeof profileEvaluationSchema>;

/** An install profile with the rules it enforces, titled in both languages. */
export const profileCatalogEntrySchema = z.object({
  name: z.enum(profileNames),
  rules: z.array(z.object({ id: z.string(), title: bilingualSchema })),
  /** Whether a DNS failure stops an operation. */
  dns_critical: z.boolean(),
  four_eyes: z.boolean(),
});
export type ProfileCatalogEntry = z.infer<typeof profileCatalogEntrySchema>;

export const profileCatalogSchema = z.object({ items: z.array(profileCatalogEntrySchema) });
export type ProfileCatalog = z.infer<typeof profileCatalogSchema>;

export const profileChangeSchema = z.object({
  profile: z.enum(profileNames, { error: `profile must be one of ${profileNames.join(', ')}` }),
  /** Leaving a four-eyes profile: the approved request (action configuration, service "profile"). */
  approval_id: z.string({ error: 'approval_id is the id of an approved request' }).nullish(),
});
export type ProfileChange = z.input<typeof profileChangeSchema>;

/** A run's outcome: fail if a check failed, else warn if one warned, else pass. */
export const PREFLIGHT_OUTCOMES = CHECK_STATUSES;
export type PreflightOutcome = (typeof PREFLIGHT_OUTCOMES)[number];
export const PREFLIGHT_TRIGGERS = ['on_demand', 'install', 'upgrade', 'report'] as const;
export type PreflightTrigger = (typeof PREFLIGHT_TRIGGERS)[number];

export const preflightRunSchema = z.object({
  id: z.string(),
  cluster_id: z.string(),
  trigger: z.enum(PREFLIGHT_TRIGGERS),
  /** The component about to be installed or upgraded; null for a run of the whole cluster. */
  target: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string(),
  outcome: z.enum(PREFLIGHT_OUTCOMES),
  checks: z.array(checkResultSchema),
  run_by: z.string(),
});
export type PreflightRun = z.infer<typeof preflightRunSchema>;

/** The PEM bundle of CAs trusted for the services' TLS endpoints ('' : none); the core reads each certificate. */
export const endpointTrustSchema = z.object({
  ca_pem: z.string({ error: 'ca_pem is the PEM text of one or more CA certificates (empty to clear)' }),
});
export type EndpointTrust = z.infer<typeof endpointTrustSchema>;

export const profileRouteSchemas = {
  'GET /api/v1/profiles': { result: profileCatalogSchema },
  'GET /api/v1/clusters/:id/profile': { result: profileEvaluationSchema },
  'PUT /api/v1/clusters/:id/profile': { body: profileChangeSchema, result: profileEvaluationSchema },
  'POST /api/v1/clusters/:id/preflight': { result: preflightRunSchema, status: 201 },
  'GET /api/v1/clusters/:id/preflight': { result: preflightRunSchema },
  'GET /api/v1/settings/endpoint-trust': { result: endpointTrustSchema },
  'PUT /api/v1/settings/endpoint-trust': { body: endpointTrustSchema, result: endpointTrustSchema },
} as const;

export type ProfileRoutes = RoutesOf<typeof profileRouteSchemas>;
