// Local accounts, managed by admins.
import type { Role, User } from './session';

export interface UserCreate {
  name: string;
  role: Role;
  password: string;
}

export interface UserRoutes {
  'GET /api/v1/users': { result: { items: User[] } };
  'POST /api/v1/users': { body: UserCreate; result: User };
  'DELETE /api/v1/users/:name/mfa': { result: null };
}
