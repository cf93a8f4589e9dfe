// The rules of each install profile, exactly as the spec's table lists them: which rule belongs to which
// profile. Their titles are in profile-texts.ts; how each one is evaluated lives in rule-checks.ts.
import type { ProfileName } from '../clusters/profile-names';

export type RuleId =
  | 'catalog_valid'
  | 'console_tls'
  | 'agent_client_certificates'
  | 'service_tls'
  | 'mfa_admin_roles'
  | 'endpoint_tls'
  | 'mfa_local_admins'
  | 'mirror_only'
  | 'syslog_remote_audit'
  | 'no_sandbox'
  | 'four_eyes'
  | 'private_egress'
  | 'customer_connections_tls';

const STANDARD: readonly RuleId[] = ['catalog_valid', 'console_tls', 'agent_client_certificates', 'service_tls', 'mfa_admin_roles'];

/** The spec's table. Every profile keeps the development baseline (a valid catalog). */
export const PROFILE_RULES: Record<ProfileName, readonly RuleId[]> = {
  development: ['catalog_valid'],
  standard: STANDARD,
  'banking-secure': [...STANDARD, 'endpoint_tls', 'mfa_local_admins', 'mirror_only', 'syslog_remote_audit', 'no_sandbox', 'four_eyes'],
  // "TLS everywhere": the console, the agents' gateway and every endpoint bound to the services.
  'air-gapped': ['catalog_valid', 'console_tls', 'agent_client_certificates', 'endpoint_tls', 'mirror_only', 'private_egress'],
  hybrid: [...STANDARD, 'customer_connections_tls'],
};

/** Operations refused while the profile is blocked; the others stay possible to bring the cluster back into compliance. */
export const BLOCKED_ACTIONS: ReadonlySet<string> = new Set(['install', 'upgrade', 'command', 'start', 'restart']);

/** DNS failures only warn under development. */
export const dnsIsCritical = (profile: ProfileName): boolean => profile !== 'development';

/** Whether the profile requires a second person's approval for disruptive operations. */
export const requiresFourEyes = (profile: ProfileName): boolean => PROFILE_RULES[profile].includes('four_eyes');

/** The roles that must log in with a second factor on a console managing a cluster of this profile. */
export const MFA_ROLES: Record<ProfileName, readonly ('viewer' | 'operator' | 'admin')[]> = {
  development: [],
  standard: ['admin'],
  'banking-secure': ['admin'],
  'air-gapped': [],
  hybrid: ['admin'],
};
