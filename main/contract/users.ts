// Local accounts, managed by admins. Declared schema first: the console's user form checks a new account with
// the same schema the route parses it with.
import { z } from './zod';
import type { RoutesOf } from './route';

export const ROLE_NAMES = ['viewer', 'operator', 'admin'] as const;
export type Role = (typeof ROLE_NAMES)[number];

/** The manager refuses shorter passwords (400 invalid_field, field 'password'). */
export const MIN_PASSWORD_LENGTH = 10;
/** A user's name: what the audit trail, the login and the four-eyes rules name them by. */
export const USER_NAME_PATTERN = /^[a-z][a-z0-9._-]{0,63}$/;
export const USER_NAME_RULE = 'a user name is 1 to 64 lowercase letters, digits, ".", "_" or "-", starting with a letter';

export const userSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(ROLE_NAMES),
  created_at: z.string(),
  /** In the users list: whether the account has a TOTP second factor. */
  mfa_enrolled: z.boolean().optional(),
});
export type User = z.infer<typeof userSchema>;

export const userCreateSchema = z.object({
  name: z.string({ error: 'name is required (a string)' }).regex(USER_NAME_PATTERN, USER_NAME_RULE),
  role: z.enum(ROLE_NAMES, { error: `role must be one of ${ROLE_NAMES.join(', ')}` }),
  password: z
    .string({ error: 'password is required (a string)' })
    .min(MIN_PASSWORD_LENGTH, `a password has at least ${MIN_PASSWORD_LENGTH} characters`),
  /** The approved request's id, to create an admin where a profile in use wants four eyes. */
  approval_id: z.string().nullish(),
});
export type UserCreate = z.infer<typeof userCreateSchema>;

export const userRouteSchemas = {
  'GET /api/v1/users': { result: z.object({ items: z.array(userSchema) }) },
  'POST /api/v1/users': { body: userCreateSchema, result: userSchema, status: 201 },
  /** approval_id: the approved request, to reset an admin's factor where a profile in use wants four eyes. */
  'DELETE /api/v1/users/:name/mfa': { query: z.object({ approval_id: z.string().optional() }), result: z.null() },
} as const;

export type UserRoutes = RoutesOf<typeof userRouteSchemas>;
