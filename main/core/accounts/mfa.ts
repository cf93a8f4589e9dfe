// The second factor of local accounts: TOTP enrolment (secret sealed at rest, confirmed by a first code),
// recovery codes, and the check of a code at login, which spends the TOTP step or the recovery code it used.
import type { Tables } from '../domain-tables';
import type { Clock } from '../clock';
import type { MfaEnrolment, MfaStatus } from '../../contract/session';
import { ConflictError, CoreError } from '../errors';
import type { KeyProtector } from '../keys/protector';
import type { Role, UserRecord } from './accounts-tables';
import type { Store } from '../store/store';
import { looksLikeRecoveryCode, newRecoveryCodes, recoveryCodeHash } from './recovery-codes';
import { newTotpSecret, qrSvg, totpBase32, totpCodeStep, totpUri } from './totp';

export interface MfaOptions {
  protector: KeyProtector;
  /** The roles the profiles of the managed clusters require a second factor for. */
  mfaRequiredRoles: () => readonly Role[];
}

/** What the session routes answer: the contract's types. */
export type { MfaEnrolment, MfaStatus };

export type SecondFactor = 'totp' | 'recovery_code';

export const isEnrolled = (u: UserRecord): boolean => u.totp_confirmed_at !== null && u.totp_sealed_secret !== null;

export class Mfa {
  constructor(
    private readonly store: Store,
    private readonly tables: Tables<'accounts'>,
    private readonly clock: Clock,
    private readonly opts: MfaOptions,
  ) {}

  status(u: UserRecord): MfaStatus {
    return { enrolled: isEnrolled(u), required: this.opts.mfaRequiredRoles().includes(u.role) };
  }

  /** True while the account may only enrol: its role needs a second factor it does not have yet. */
  pending(u: UserRecord): boolean {
    const s = this.status(u);
    return s.required && !s.enrolled;
  }

  /** A new secret for the user, replacing any unconfirmed one. */
  async startEnrolment(userId: string, actor: string): Promise<MfaEnrolment> {
    const secret = newTotpSecret();
    const user = this.tables.accounts.userById(userId);
    if (!user) throw new CoreError('not_found', 'this account no longer exists');
    const otpauth_uri = totpUri(secret, user.name);
    const qr_svg = await qrSvg(otpauth_uri);
    this.store.tx(() => {
      const fresh = this.tables.accounts.userById(userId);
      if (!fresh) throw new CoreError('not_found', 'this account no longer exists');
      if (isEnrolled(fresh))
        throw new ConflictError('mfa_already_enrolled', 'this account already has a confirmed second factor; an admin can reset it');
      this.tables.accounts.startTotpEnrolment(userId, this.opts.protector.seal(secret));
      this.store.audit.append({ actor, action: 'mfa.enrol', target: user.name });
    });
    return { secret: totpBase32(secret), otpauth_uri, qr_svg, account: user.name };
  }

  /** Confirms the pending enrolment with a current code; returns the recovery codes, shown this once. */
  confirmEnrolment(userId: string, code: string, actor: string): string[] {
    return this.store.tx(() => {
      const user = this.tables.accounts.userById(userId);
      if (!user) throw new CoreError('not_found', 'this account no longer exists');
      if (isEnrolled(user)) throw new ConflictError('mfa_already_enrolled', 'this account already has a confirmed second factor');
      if (!user.totp_sealed_secret) throw new ConflictError('mfa_enrollment_missing', 'start an enrolment first');
      const now = this.clock.now();
      const step = totpCodeStep(this.opts.protector.open(user.totp_sealed_secret), code.replace(/\s+/g, ''), now);
      if (step === undefined)
        throw new CoreError('mfa_code_invalid', 'this code does not match; check the time of the device and type the code shown now');
      const codes = newRecoveryCodes();
      this.tables.accounts.confirmTotp(userId, now.toISOString(), step);
      this.tables.accounts.replaceRecoveryCodes(userId, codes.map(recoveryCodeHash));
      this.store.audit.append({ actor, action: 'mfa.confirm', target: user.name, details: { recovery_codes: codes.length } });
      return codes;
    });
  }

  /**
   * Checks a login code and spends it: a TOTP code of a step not used before, or an unused recovery code.
   * Runs inside the caller's transaction.
   */
  spendCode(u: UserRecord, code: string): SecondFactor | undefined {
    if (!isEnrolled(u)) return undefined;
    const compact = code.replace(/\s+/g, '');
    const step = totpCodeStep(this.opts.protector.open(u.totp_sealed_secret!), compact, this.clock.now());
    if (step !== undefined) return this.tables.accounts.takeTotpStep(u.id, step) ? 'totp' : undefined;
    if (
      looksLikeRecoveryCode(compact) &&
      this.tables.accounts.useRecoveryCode(u.id, recoveryCodeHash(compact), this.clock.now().toISOString())
    )
      return 'recovery_code';
    return undefined;
  }

  /** Removes the user's TOTP and recovery codes (e.g. a lost phone); the next login has no second factor. */
  reset(userName: string, actor: string, beforeCommit?: () => void): void {
    this.store.tx(() => {
      const user = this.tables.accounts.userByName(userName);
      if (!user) throw new CoreError('not_found', `no user named ${userName}`);
      this.tables.accounts.clearMfa(user.id);
      this.store.audit.append({ actor, action: 'mfa.reset', target: userName, details: { was_enrolled: isEnrolled(user) } });
      beforeCommit?.();
    });
  }

  enrolment(): { name: string; role: Role; enrolled: boolean }[] {
    return this.tables.accounts.listUsers().map((u) => ({ name: u.name, role: u.role, enrolled: isEnrolled(u) }));
  }
}
