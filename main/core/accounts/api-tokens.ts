// API tokens for scripts: shown once at creation, stored as a hash, each with an id, an expiry (90 days unless
// asked otherwise, at most a year) and a revocation. A dead token is refused with the reason (token_expired,
// token_revoked); creating, revoking and a refused use are audited.
import type { Tables } from '../domain-tables';
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import { CoreError, found, ValidationError } from '../errors';
import type { Store } from '../store/store';
import type { ApiTokenRecord } from './api-tokens-table';
import type { UserRecord } from './accounts-tables';
import { TOKEN_NAME_PATTERN, TOKEN_NAME_RULE } from '../../contract/tokens';
import type { ApiToken, ApiTokenState, NewApiToken } from '../../contract/tokens';
import { sha256 } from './credentials';

export const TOKEN_DEFAULT_DAYS = 90;
export const TOKEN_MAX_DAYS = 365;
const DAY_MS = 86_400_000;
/** A refused use of the same dead token is audited at most this often, so that a looping script cannot flood the log. */
const REFUSAL_AUDIT_EVERY_MS = 10 * 60_000;

/** A token as listed: the contract's type, the one source of its shape. */
export type ApiTokenView = ApiToken;
export type { ApiTokenState, NewApiToken };

export class TokenError extends CoreError {}

/** "30d", "12h", "90" (days), or a number of days: the lifetime asked for, checked against the maximum. */
export function parseTokenLifetime(input: unknown): number {
  if (input === undefined || input === null || input === '') return TOKEN_DEFAULT_DAYS * DAY_MS;
  let ms: number | undefined;
  if (typeof input === 'number' && Number.isInteger(input)) ms = input * DAY_MS;
  else if (typeof input === 'string') {
    const m = /^([1-9][0-9]{0,5})([dh]?)$/.exec(input.trim());
    if (m) ms = Number(m[1]) * (m[2] === 'h' ? 3_600_000 : DAY_MS);
  }
  if (ms === undefined || ms <= 0 || ms > TOKEN_MAX_DAYS * DAY_MS)
    throw new ValidationError(
      'expires',
      `expires is a lifetime such as 30d or 12h, at most ${TOKEN_MAX_DAYS}d (default ${TOKEN_DEFAULT_DAYS}d)`,
    );
  return ms;
}

export class ApiTokens {
  private readonly refusalsAudited = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly tables: Tables<'accounts' | 'apiTokens'>,
    private readonly clock: Clock,
  ) {}

  create(userName: string, opts: { expires?: unknown; name?: unknown }, actor: string): NewApiToken {
    const ttl = parseTokenLifetime(opts.expires);
    const name = opts.name === undefined || opts.name === null || opts.name === '' ? null : opts.name;
    if (name !== null && (typeof name !== 'string' || !TOKEN_NAME_PATTERN.test(name))) throw new ValidationError('name', TOKEN_NAME_RULE);
    const token = `navin_${randomBytes(32).toString('base64url')}`;
    const now = this.clock.now();
    return this.store.tx(() => {
      const user = this.userNamed(userName);
      const row: ApiTokenRecord = {
        id: randomBytes(8).toString('hex'),
        token_hash: sha256(token),
        user_id: user.id,
        name,
        created_at: now.toISOString(),
        created_by: actor,
        expires_at: new Date(now.getTime() + ttl).toISOString(),
        revoked_at: null,
        revoked_by: null,
      };
      this.tables.apiTokens.insert(row);
      this.store.audit.append({
        actor,
        action: 'token.create',
        target: userName,
        details: { id: row.id, name, expires_at: row.expires_at },
      });
      return { ...this.view(row, user), token };
    });
  }

  list(userName: string): ApiTokenView[] {
    const user = this.userNamed(userName);
    return this.tables.apiTokens.listForUser(user.id).map((r) => this.view(r, user));
  }

  revoke(userName: string, id: string, actor: string): ApiTokenView {
    return this.store.tx(() => {
      const user = this.userNamed(userName);
      const row = found(this.tables.apiTokens.byId(user.id, id), `API token of ${userName}`, id);
      if (this.tables.apiTokens.revoke(id, this.clock.now().toISOString(), actor))
        this.store.audit.append({ actor, action: 'token.revoke', target: userName, details: { id, name: row.name } });
      return this.view(this.tables.apiTokens.byId(user.id, id)!, user);
    });
  }

  /** The user behind a live token; undefined for a token never issued; TokenError when expired or revoked. */
  user(token: string): UserRecord | undefined {
    const row = this.tables.apiTokens.byHash(sha256(token));
    if (!row) return undefined;
    const user = this.tables.accounts.userById(row.user_id);
    if (!user) return undefined;
    const state = this.stateOf(row);
    if (state === 'active') return user;
    this.auditRefusal(row, user, state);
    if (state === 'revoked')
      throw new TokenError(
        'token_revoked',
        `this API token was revoked at ${row.revoked_at}; create a new one (navin-manager token create)`,
      );
    throw new TokenError('token_expired', `this API token expired at ${row.expires_at}; create a new one (navin-manager token create)`);
  }

  private auditRefusal(row: ApiTokenRecord, user: UserRecord, state: ApiTokenState): void {
    const now = this.clock.now().getTime();
    const last = this.refusalsAudited.get(row.id);
    if (last !== undefined && now - last < REFUSAL_AUDIT_EVERY_MS) return;
    if (this.refusalsAudited.size > 10_000) this.refusalsAudited.clear();
    this.refusalsAudited.set(row.id, now);
    this.store.tx(() =>
      this.store.audit.append({
        actor: user.name,
        action: 'token.refused',
        target: user.name,
        details: { id: row.id, reason: `token_${state}` },
      }),
    );
  }

  private stateOf(row: ApiTokenRecord): ApiTokenState {
    if (row.revoked_at !== null) return 'revoked';
    return new Date(row.expires_at) <= this.clock.now() ? 'expired' : 'active';
  }

  private view(row: ApiTokenRecord, user: UserRecord): ApiTokenView {
    return {
      id: row.id,
      user: user.name,
      name: row.name,
      created_at: row.created_at,
      created_by: row.created_by,
      expires_at: row.expires_at,
      revoked_at: row.revoked_at,
      revoked_by: row.revoked_by,
      state: this.stateOf(row),
    };
  }

  private userNamed(name: string): UserRecord {
    return found(this.tables.accounts.userByName(name), 'user', name);
  }
}
