// The five install profiles of the spec, by their API names.
import type { ProfileName } from '../store/clusters-table';

export type { ProfileName };
export const PROFILES: readonly ProfileName[] = ['development', 'standard', 'banking-secure', 'air-gapped', 'hybrid'];
export const DEFAULT_PROFILE: ProfileName = 'development';
export const isProfile = (v: unknown): v is ProfileName => typeof v === 'string' && (PROFILES as readonly string[]).includes(v);

/** The roles that must log in with a second factor on a console managing a cluster of this profile. */
export const MFA_ROLES: Record<ProfileName, readonly ('viewer' | 'operator' | 'admin')[]> = {
  development: [],
  standard: ['admin'],
  'banking-secure': ['admin'],
  'air-gapped': [],
  hybrid: ['admin'],
};
