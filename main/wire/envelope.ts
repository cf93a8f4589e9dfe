// Signed documents: {"payload": {...}, "signature": "<base64url Ed25519 over the RFC 8785 bytes of payload>"}.
// Signing here; verification fails closed with exactly one code, in a fixed order. Portable (no Node APIs).
import { canonicalize, parseJson } from './canonical-json';
import type { Ed25519 } from './ed25519';
import { fromBase64url, keyId, toBase64url } from './encoding';
import { WireError } from './errors';
import type { NonceStore } from './nonce-store';
import { isPlainObject, payloadProblem, type DocumentType, type PayloadBase, type PayloadByType, type SignedDocument } from './payloads';
import { newCommandId, newNonce } from './random';
import { formatTimestamp, parseTimestamp } from './timestamps';

export type { NonceStore } from './nonce-store';
export { MemoryNonceStore } from './nonce-store';
export { newNonce, newCommandId } from './random';
export * from './payloads';

export interface Signer {
  readonly keyId: string;
  readonly publicKey: Uint8Array;
  sign(bytes: Uint8Array): Uint8Array;
}

/** A signer for one seed. The seed is copied, so the caller may wipe its own; it is never exposed. */
export function createSigner(impl: Ed25519, seed: Uint8Array): Signer {
  if (!(seed instanceof Uint8Array) || seed.length !== 32) throw new WireError('key_invalid', 'an Ed25519 seed is 32 bytes');
  const own = seed.slice();
  const publicKey = impl.publicKey(own);
  let sign: (bytes: Uint8Array) => Uint8Array;
  if (impl.prepareSigner) {
    sign = impl.prepareSigner(own);
    own.fill(0); // the prepared key holds its own copy
  } else {
    sign = (bytes) => impl.sign(own, bytes);
  }
  return Object.freeze({ keyId: keyId(publicKey), publicKey: publicKey.slice(), sign });
}

/** What signDocument takes: a payload of any kind; v defaults to 1 and key_id is set from the signer. */
export interface UnsignedPayload {
  type: DocumentType;
  v?: 1;
  key_id?: string;
}

const encoder = new TextEncoder();

/**
 * Signs a payload. The returned payload is a fresh copy of exactly the JSON that was signed (so later edits
 * to the caller's objects cannot desynchronise it). Throws WireError payload_invalid for a payload that a
 * verifier would refuse as malformed, and the canonicalize errors for a value that is not JSON.
 */
export function signDocument<P extends UnsignedPayload>(payload: P, signer: Signer): SignedDocument<P & { v: 1; key_id: string }> {
  if (!isPlainObject(payload)) throw new WireError('payload_invalid', 'a payload is a JSON object');
  const full = { ...payload, v: payload.v ?? 1, key_id: signer.keyId };
  const problem = payloadProblem(full);
  if (problem) throw new WireError('payload_invalid', problem);
  const canonical = canonicalize(full);
  const signature = toBase64url(signer.sign(encoder.encode(canonical)));
  return { payload: JSON.parse(canonical) as P & { v: 1; key_id: string }, signature };
}

export interface BuildCommandOptions {
  tenant: string;
  /** The cluster id. */
  target: string;
  op: string;
  args?: Record<string, unknown>;
  /** Defaults to a random UUID. */
  command_id?: string;
  /** Defaults to a fresh 16-byte nonce. */
  nonce?: string;
  /** The clock: a date or a function returning one; defaults to the system clock. */
  now?: Date | (() => Date);
  /** not_after = issued_at + validitySeconds. */
  validitySeconds: number;
}

export type UnsignedCommand = Omit<PayloadByType['command'], 'key_id'>;

/** An unsigned command payload, valid from now for validitySeconds, ready for signDocument. */
export function buildCommand(options: BuildCommandOptions): UnsignedCommand {
  const { validitySeconds } = options;
  if (!Number.isFinite(validitySeconds) || validitySeconds <= 0)
    throw new WireError('payload_invalid', 'validitySeconds must be a positive number');
  const now = typeof options.now === 'function' ? options.now() : (options.now ?? new Date());
  const issued = formatTimestamp(now);
  return {
    type: 'command',
    v: 1,
    command_id: options.command_id ?? newCommandId(),
    tenant: options.tenant,
    target: options.target,
    nonce: options.nonce ?? newNonce(),
    issued_at: issued,
    not_before: issued,
    not_after: formatTimestamp(new Date(now.getTime() + validitySeconds * 1000)),
    op: options.op,
    args: options.args ?? {},
  };
}

/** Every verification failure, in the order the checks run: the first one that applies is the answer. */
export const VERIFY_CODES = [
  'malformed',
  'key_unknown',
  'signature_invalid',
  'type_mismatch',
  'target_mismatch',
  'tenant_mismatch',
  'not_yet_valid',
  'expired',
  'nonce_replayed',
] as const;
export type VerifyCode = (typeof VERIFY_CODES)[number];

export interface VerifyFailure<C extends string = VerifyCode> {
  ok: false;
  code: C;
  message: string;
}
export interface VerifySuccess<P> {
  ok: true;
  payload: P;
}
export type VerifyResult<P = PayloadByType[DocumentType], C extends string = VerifyCode> = VerifySuccess<P> | VerifyFailure<C>;

export const DEFAULT_CLOCK_SKEW_SECONDS = 30;

export interface VerifyOptions<T extends DocumentType = DocumentType> {
  impl: Ed25519;
  /** key_id → 32-byte public key. An entry whose id is not keyId(key) trusts nothing. */
  trustedKeys: ReadonlyMap<string, Uint8Array>;
  expectedType: T;
  expectedTarget?: string;
  expectedTenant?: string;
  now?: () => Date;
  /** Tolerance on both ends of the validity window; default 30, an invalid value counts as 0. */
  clockSkewSeconds?: number;
  /** Replay protection for payloads with a nonce. Without a store, nonces are not checked: command verifiers must pass one. */
  nonceStore?: NonceStore;
}

const fail = (code: VerifyCode, message: string): VerifyFailure => ({ ok: false, code, message });

/**
 * Verifies a signed document (a JSON text, parsed strictly, or an already parsed value). Never throws.
 * On success the payload is a fresh copy of exactly the JSON the signature covers.
 */
export function verifyDocument<T extends DocumentType>(input: unknown, opts: VerifyOptions<T>): VerifyResult<PayloadByType[T]> {
  try {
    return verifyUnsafe(input, opts) as VerifyResult<PayloadByType[T]>;
  } catch (error) {
    return fail('malformed', `the document could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function verifyUnsafe(input: unknown, opts: VerifyOptions): VerifyResult<PayloadBase & Record<string, unknown>> {
  const doc = typeof input === 'string' ? parseJson(input) : input;
  if (!isPlainObject(doc)) return fail('malformed', 'a signed document is a JSON object');
  const keys = Object.keys(doc);
  if (keys.length !== 2 || !keys.includes('payload') || !keys.includes('signature'))
    return fail('malformed', 'a signed document has exactly the members "payload" and "signature"');
  const { payload: rawPayload, signature: rawSignature } = doc;
  if (typeof rawSignature !== 'string') return fail('malformed', 'signature must be a base64url string');
  let signature: Uint8Array;
  try {
    signature = fromBase64url(rawSignature);
  } catch {
    return fail('malformed', 'signature is not base64url without padding');
  }
  if (signature.length !== 64) return fail('malformed', 'signature is not 64 bytes');
  if (!isPlainObject(rawPayload)) return fail('malformed', 'payload must be a JSON object');
  // Everything below reads this snapshot of exactly the signed bytes, never the caller's objects (whose
  // getters could answer differently the second time).
  const canonical = canonicalize(rawPayload);
  const payload = JSON.parse(canonical) as PayloadBase & Record<string, unknown>;
  const problem = payloadProblem(payload);
  if (problem) return fail('malformed', problem);

  const publicKey = opts.trustedKeys.get(payload.key_id);
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32 || keyId(publicKey) !== payload.key_id)
    return fail('key_unknown', `key ${payload.key_id} is not trusted`);
  if (opts.impl.verify(publicKey, encoder.encode(canonical), signature) !== true)
    return fail('signature_invalid', `the signature does not match the payload and key ${payload.key_id}`);

  if (payload.type !== opts.expectedType)
    return fail('type_mismatch', `expected a ${String(opts.expectedType)} document, got ${payload.type}`);
  if (opts.expectedTarget !== undefined && payload.target !== opts.expectedTarget)
    return fail('target_mismatch', `the document is for target ${String(payload.target)}, not ${opts.expectedTarget}`);
  if (opts.expectedTenant !== undefined && payload.tenant !== opts.expectedTenant)
    return fail('tenant_mismatch', `the document is for tenant ${String(payload.tenant)}, not ${opts.expectedTenant}`);

  const now = (opts.now ?? (() => new Date()))();
  const nowMs = now instanceof Date ? now.getTime() : NaN;
  if (!Number.isFinite(nowMs)) throw new Error('the verifier clock returned an invalid date');
  const skew =
    opts.clockSkewSeconds === undefined
      ? DEFAULT_CLOCK_SKEW_SECONDS
      : Number.isFinite(opts.clockSkewSeconds) && opts.clockSkewSeconds >= 0
        ? opts.clockSkewSeconds
        : 0;
  const skewMs = skew * 1000;
  const notBefore = parseTimestamp(payload.not_before);
  const notAfter = parseTimestamp(payload.not_after);
  if (notBefore !== null && nowMs + skewMs < notBefore)
    return fail('not_yet_valid', `the document is valid from ${String(payload.not_before)}`);
  if (notAfter !== null && nowMs - skewMs > notAfter) return fail('expired', `the document expired at ${String(payload.not_after)}`);

  if (typeof payload.nonce === 'string' && opts.nonceStore) {
    if (opts.nonceStore.seen(payload.nonce)) return fail('nonce_replayed', 'this nonce was already accepted');
    // Past not_after + skew the envelope is refused as expired anyway, so the store may forget it then. A
    // nonce-bearing document without not_after never expires, so neither does its nonce.
    opts.nonceStore.remember(payload.nonce, new Date(notAfter === null ? 8.64e15 : notAfter + skewMs));
  }
  return { ok: true, payload };
}
