// The rules of each install profile, exactly as the spec's table lists them: which rule belongs to which
// profile, with its title in both languages. How each one is evaluated lives in rule-checks.ts.
import type { Bilingual } from '../checks/bilingual';
import { bilingual } from '../checks/bilingual';
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

export const RULE_TITLES: Record<RuleId, Bilingual> = {
  catalog_valid: bilingual(
    'Valid catalog: every component is a known service with a valid spec',
    'Catalogue valide : chaque composant est un service connu avec une spécification valide',
  ),
  console_tls: bilingual('TLS on the console', 'TLS sur la console'),
  agent_client_certificates: bilingual(
    'Agent client certificates required by the gateway',
    'Certificats clients des agents exigés par la passerelle',
  ),
  service_tls: bilingual('TLS on every service that supports it', 'TLS sur chaque service qui le prend en charge'),
  mfa_admin_roles: bilingual('MFA required for administration roles', "MFA exigée pour les rôles d'administration"),
  endpoint_tls: bilingual('TLS on every endpoint', 'TLS sur chaque point de terminaison'),
  mfa_local_admins: bilingual('MFA enrolled by every local administrator', 'MFA enrôlée par chaque administrateur local'),
  mirror_only: bilingual('Internal mirror only', 'Miroir seul'),
  syslog_remote_audit: bilingual('Remote audit (syslog) configured and reachable', 'Audit distant (syslog) configuré et joignable'),
  no_sandbox: bilingual('No sandbox service', 'Aucun service de bac à sable'),
  four_eyes: bilingual(
    'Second-person approval for every disruptive operation',
    "Approbation d'une seconde personne pour chaque opération perturbatrice",
  ),
  private_egress: bilingual(
    'No bound connection or webhook outside private networks',
    'Aucune connexion liée ni webhook hors des réseaux privés',
  ),
  customer_connections_tls: bilingual(
    "TLS on every connection to the customer's infrastructure",
    "TLS sur chaque connexion vers l'infrastructure du client",
  ),
};

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
