// What an account is to the rest of the manager: its role (and their order) and the name rules a new one obeys.
import { ValidationError } from '../errors';
import type { Role, UserRecord } from './accounts-tables';
import { MIN_PASSWORD_LENGTH } from './passwords';
import { ROLE_NAMES, USER_NAME_PATTERN, USER_NAME_RULE } from '../../contract/users';

// The contract's lists and rules: the route parses a new account with them, the CLI and setup come through here.
export const ROLES: readonly Role[] = ROLE_NAMES;
const ROLE_RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 };
export const roleAtLeast = (role: Role, needed: Role): boolean => ROLE_RANK[role] >= ROLE_RANK[needed];

export interface PublicUser {
  id: string;
  name: string;
  role: Role;
  created_at: string;
}

export const publicUser = (u: UserRecord): PublicUser => ({ id: u.id, name: u.name, role: u.role, created_at: u.created_at });

export function checkNewUser(name: string, role: Role, password: string): void {
  if (!USER_NAME_PATTERN.test(name)) throw new ValidationError('name', USER_NAME_RULE);
  if (!ROLES.includes(role)) throw new ValidationError('role', `role must be one of ${ROLES.join(', ')}`);
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new ValidationError('password', `a password has at least ${MIN_PASSWORD_LENGTH} characters`);
}
