// What an account is to the rest of the manager: its role (and their order) and the name rules a new one obeys.
import { ValidationError } from '../errors';
import type { Role, UserRecord } from '../store/accounts-tables';
import { MIN_PASSWORD_LENGTH } from './passwords';

export const ROLES: readonly Role[] = ['viewer', 'operator', 'admin'];
const ROLE_RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 };
export const roleAtLeast = (role: Role, needed: Role): boolean => ROLE_RANK[role] >= ROLE_RANK[needed];

const USER_NAME = /^[a-z][a-z0-9._-]{0,63}$/;

export interface PublicUser {
  id: string;
  name: string;
  role: Role;
  created_at: string;
}

export const publicUser = (u: UserRecord): PublicUser => ({ id: u.id, name: u.name, role: u.role, created_at: u.created_at });

export function checkNewUser(name: string, role: Role, password: string): void {
  if (!USER_NAME.test(name))
    throw new ValidationError('name', 'a user name is 1 to 64 lowercase letters, digits, ".", "_" or "-", starting with a letter');
  if (!ROLES.includes(role)) throw new ValidationError('role', `role must be one of ${ROLES.join(', ')}`);
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new ValidationError('password', `a password has at least ${MIN_PASSWORD_LENGTH} characters`);
}
