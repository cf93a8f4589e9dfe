// API tokens of a user, for scripts: listed with their state, created with a lifetime (the secret shown once),
// revoked. An admin manages anyone's, every user their own.

export type ApiTokenState = 'active' | 'expired' | 'revoked';

/** An API token as listed (never its secret). */
export interface ApiToken {
  id: string;
  user: string;
  name: string | null;
  created_at: string;
  created_by: string;
  expires_at: string;
  revoked_at: string | null;
  revoked_by: string | null;
  state: ApiTokenState;
}

/** A new token, with its secret shown this once. */
export interface NewApiToken extends ApiToken {
  token: string;
}

/** A lifetime such as "30d" or "12h" (default 90 days, at most 365) and a label. */
export interface ApiTokenCreate {
  expires?: string;
  name?: string;
}

export interface TokenRoutes {
  'GET /api/v1/users/:name/tokens': { result: { items: ApiToken[] } };
  'POST /api/v1/users/:name/tokens': { body: ApiTokenCreate; result: NewApiToken };
  'DELETE /api/v1/users/:name/tokens/:id': { result: ApiToken };
}
