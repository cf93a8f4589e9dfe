// The lock-out of an account after too many wrong passwords or second-factor codes, counted in the store so that
// concurrent logins share one count.
import type { Tables } from '../domain-tables';
import type { Clock } from '../clock';
import type { Store } from '../store/store';
import { AuthError } from './credentials';

export const MAX_FAILED_LOGINS = 5;
export const LOCKOUT_MS = 15 * 60_000;

/** A guess counted before its password is checked; `lock` is the lock this very guess set, if it was the last allowed. */
export interface Guess {
  lock: string | null;
}

export const accountLocked = (lockedUntil: string): AuthError =>
  new AuthError('account_locked', `too many failed logins; try again after ${lockedUntil} or ask an admin`, {
    locked_until: lockedUntil,
  });

/**
 * Refuses a locked account (audited), else counts one more guess, locking the account when it is the last one
 * allowed. A lock that has run out starts a new window.
 */
export function countGuess(store: Store, tables: Tables<'accounts'>, clock: Clock, userId: string): Guess {
  const outcome = store.tx((): Guess | { error: AuthError } => {
    const u = tables.accounts.userById(userId)!;
    const now = clock.now();
    if (u.locked_until && new Date(u.locked_until) > now) {
      store.audit.append({ actor: u.name, action: 'session.login_failed', details: { reason: 'locked' } });
      return { error: accountLocked(u.locked_until) };
    }
    const failed = (u.locked_until ? 0 : u.failed_logins) + 1;
    const lock = failed >= MAX_FAILED_LOGINS ? new Date(now.getTime() + LOCKOUT_MS).toISOString() : null;
    tables.accounts.setLoginFailures(u.id, failed, lock);
    return { lock };
  });
  if ('error' in outcome) throw outcome.error;
  return outcome;
}

/** Uncounts a guess whose password was right (or never checked), lifting the lock it set (caller's transaction). */
export function giveBack(store: Store, tables: Tables<'accounts'>, userId: string, guess: Guess): void {
  const u = tables.accounts.userById(userId);
  if (!u) return;
  const locked = guess.lock !== null && u.locked_until === guess.lock ? null : u.locked_until;
  tables.accounts.setLoginFailures(u.id, Math.max(0, u.failed_logins - 1), locked);
}

/** Counts a wrong second-factor code and locks the account at the limit (in the caller's transaction). */
export function recordFailure(store: Store, tables: Tables<'accounts'>, clock: Clock, userId: string, reason: string): void {
  const user = tables.accounts.userById(userId);
  if (!user) return;
  const now = clock.now();
  const expired = user.locked_until !== null && new Date(user.locked_until) <= now;
  const failed = (expired ? 0 : user.failed_logins) + 1;
  const locked = failed >= MAX_FAILED_LOGINS ? new Date(now.getTime() + LOCKOUT_MS).toISOString() : expired ? null : user.locked_until;
  tables.accounts.setLoginFailures(user.id, failed, locked);
  store.audit.append({ actor: user.name, action: 'session.login_failed', details: { reason, failed, locked_until: locked } });
}
