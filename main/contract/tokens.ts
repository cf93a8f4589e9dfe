// API tokens of a user, for scripts: listed with their state, created with a lifetime (the secret shown once),
// revoked. An admin manages anyone's, every user their own. Declared schema first: the core's token views are
// these types.
import { authorFields } from './records';
import { z } from './zod';
import type { RoutesOf } from './route';

export const apiTokenStates = ['active', 'expired', 'revoked'] as const;
export type ApiTokenState = (typeof apiTokenStates)[number];

/** An API token as listed (never its secret). */
export const apiTokenSchema = z.object({
  id: z.string(),
  user: z.string(),
  name: z.string().nullable(),
  ...authorFields,
  expires_at: z.string(),
  revoked_at: z.string().nullable(),
  revoked_by: z.string().nullable(),
  state: z.enum(apiTokenStates),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** A new token, with its secret shown this once. */
export const newApiTokenSchema = apiTokenSchema.extend({ token: z.string() });
export type NewApiToken = z.infer<typeof newApiTokenSchema>;

/** A token's label: `null` or "" is none. */
export const TOKEN_NAME_PATTERN = /^[\p{L}\p{N} ._:/@-]{1,64}$/u;
export const TOKEN_NAME_RULE = 'a token name is 1 to 64 letters, digits, spaces or . _ : / @ -';

/**
 * A lifetime such as "30d" or "12h" (default 90 days, at most 365) and a label. Their rules are the core's
 * (`parseTokenLifetime`, the token name): a number of days is a lifetime too, as the CLI gives it.
 */
export const apiTokenCreateSchema = z.object({
  expires: z.union([z.string(), z.number()], { error: 'expires is a lifetime such as 30d or 12h' }).nullish(),
  name: z.string({ error: TOKEN_NAME_RULE }).nullish(),
});
export type ApiTokenCreate = z.infer<typeof apiTokenCreateSchema>;

export const tokenRouteSchemas = {
  'GET /api/v1/users/:name/tokens': { result: z.object({ items: z.array(apiTokenSchema) }) },
  // No body is a token of the default lifetime and no label.
  'POST /api/v1/users/:name/tokens': { body: apiTokenCreateSchema.optional(), result: newApiTokenSchema, status: 201 },
  'DELETE /api/v1/users/:name/tokens/:id': { result: apiTokenSchema },
} as const;

export type TokenRoutes = RoutesOf<typeof tokenRouteSchemas>;
