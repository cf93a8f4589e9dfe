// The five install profiles of the spec, by their API names: an attribute of every cluster record. What each
// profile requires is in profiles/profile-rules.ts.
import { profileNames, type ProfileName } from '../../contract/clusters';

export type { ProfileName };
export const PROFILES: readonly ProfileName[] = profileNames;
export const DEFAULT_PROFILE: ProfileName = 'development';
export const isProfile = (v: unknown): v is ProfileName => typeof v === 'string' && (PROFILES as readonly string[]).includes(v);
