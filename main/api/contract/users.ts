// Local accounts, managed by admins.
import type { Role, User } from './session';

export interface UserCreate {
  name: string;
  role: Role;
  password: string;
  /** The approved request's id, to create an admin where a profile in use wants four eyes. */
  approval_id?: string;
}

export interface UserRoutes {
  'GET /api/v1/users': { result: { items: User[] } };
  'POST /api/v1/users': { body: UserCreate; result: User };
  /** approval_id: the approved request, to reset an admin's factor where a profile in use wants four eyes. */
  'DELETE /api/v1/users/:name/mfa': { query: { approval_id?: string }; result: null };
}
