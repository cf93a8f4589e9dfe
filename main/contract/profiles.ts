// Profiles and preflight checks: a cluster's profile evaluated now and changed by an admin, the catalog of
// profiles and their rules, the preflight run on demand and its latest result, the CAs trusted for endpoints.
import type { Bilingual, CheckResult } from './checks';
import type { ProfileName } from './clusters';

export interface ProfileEvaluation {
  cluster_id: string;
  profile: ProfileName;
  status: 'compliant' | 'blocked';
  rules: CheckResult[];
  four_eyes: boolean;
  four_eyes_actions: string[];
  evaluated_at: string;
}

/** An install profile with the rules it enforces, titled in both languages. */
export interface ProfileCatalogEntry {
  name: ProfileName;
  rules: { id: string; title: Bilingual }[];
  dns_critical: boolean;
  four_eyes: boolean;
}

export interface ProfileCatalog {
  items: ProfileCatalogEntry[];
}

export interface ProfileChange {
  profile: ProfileName;
  /** Leaving a four-eyes profile: the approved request (action configuration, service "profile"). */
  approval_id?: string;
}

export type PreflightOutcome = 'pass' | 'warn' | 'fail';
export type PreflightTrigger = 'on_demand' | 'install' | 'upgrade' | 'report';

export interface PreflightRun {
  id: string;
  cluster_id: string;
  trigger: PreflightTrigger;
  /** The component about to be installed or upgraded; null for a run of the whole cluster. */
  target: string | null;
  started_at: string;
  finished_at: string;
  outcome: PreflightOutcome;
  checks: CheckResult[];
  run_by: string;
}

/** The PEM bundle of CAs trusted for the services' TLS endpoints ('' : none). */
export interface EndpointTrust {
  ca_pem: string;
}

export interface ProfileRoutes {
  'GET /api/v1/profiles': { result: ProfileCatalog };
  'GET /api/v1/clusters/:id/profile': { result: ProfileEvaluation };
  'PUT /api/v1/clusters/:id/profile': { body: ProfileChange; result: ProfileEvaluation };
  'POST /api/v1/clusters/:id/preflight': { result: PreflightRun };
  'GET /api/v1/clusters/:id/preflight': { result: PreflightRun };
  'GET /api/v1/settings/endpoint-trust': { result: EndpointTrust };
  'PUT /api/v1/settings/endpoint-trust': { body: EndpointTrust; result: EndpointTrust };
}
