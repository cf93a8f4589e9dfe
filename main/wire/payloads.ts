// The payload kinds a signed document can carry, and the structural rules a payload must meet before its
// signature is even looked at. The `type` field is signed, so a signature for one kind never passes as another.
import { fromBase64url } from './encoding';
import { MAX_NONCE_BYTES, MIN_NONCE_BYTES } from './random';
import { parseTimestamp } from './timestamps';

export const DOCUMENT_TYPES = ['command', 'agent-config', 'desired-state', 'report', 'bundle'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** The only envelope version; a verifier refuses any other as malformed rather than guess at it. */
export const WIRE_VERSION = 1;

export interface PayloadBase {
  type: DocumentType;
  v: 1;
  /** keyId() of the public key that verifies the signature. */
  key_id: string;
}

/** Optional validity window (RFC 3339 UTC); commands always carry one. */
export interface ValidityWindow {
  not_before?: string;
  not_after?: string;
}

/** Any further JSON members of the open payload kinds. */
export type ExtraFields = Record<string, unknown>;

export interface CommandPayload extends PayloadBase {
  type: 'command';
  command_id: string;
  tenant: string;
  /** The cluster id the command is for. */
  target: string;
  /** base64url of at least 16 random bytes; a verifier with a nonce store refuses it the second time. */
  nonce: string;
  issued_at: string;
  not_before: string;
  not_after: string;
  op: string;
  args: Record<string, unknown>;
}

export type AgentConfigPayload<T extends object = ExtraFields> = PayloadBase &
  ValidityWindow & { type: 'agent-config'; target: string; tenant: string } & T;
export type DesiredStatePayload<T extends object = ExtraFields> = PayloadBase &
  ValidityWindow & { type: 'desired-state'; target: string; tenant: string } & T;
export type ReportPayload<T extends object = ExtraFields> = PayloadBase & ValidityWindow & { type: 'report' } & T;

/** An offline bundle's manifest, signed by a release key (never by the manager's command key). */
export type BundlePayload<T extends object = ExtraFields> = PayloadBase & ValidityWindow & { type: 'bundle' } & T;

export type Payload = CommandPayload | AgentConfigPayload | DesiredStatePayload | ReportPayload | BundlePayload;

export interface PayloadByType {
  command: CommandPayload;
  'agent-config': AgentConfigPayload;
  'desired-state': DesiredStatePayload;
  report: ReportPayload;
  bundle: BundlePayload;
}

export interface SignedDocument<P extends PayloadBase = Payload> {
  payload: P;
  /** base64url (no padding) of the Ed25519 signature over canonicalBytes(payload). */
  signature: string;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const KEY_ID = /^[0-9a-f]{16}$/;
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

function nonceProblem(nonce: unknown): string | null {
  if (typeof nonce !== 'string') return 'nonce must be a string';
  let bytes: Uint8Array;
  try {
    bytes = fromBase64url(nonce);
  } catch {
    return 'nonce is not base64url';
  }
  if (bytes.length < MIN_NONCE_BYTES) return `nonce is shorter than ${MIN_NONCE_BYTES} bytes`;
  if (bytes.length > MAX_NONCE_BYTES) return `nonce is longer than ${MAX_NONCE_BYTES} bytes`;
  return null;
}

/** Why a payload breaks the structural rules of its kind, or null if it keeps them. */
export function payloadProblem(payload: object): string | null {
  const p = payload as Record<string, unknown>;
  if (!DOCUMENT_TYPES.includes(p.type as DocumentType)) return `type must be one of ${DOCUMENT_TYPES.join(', ')}`;
  if (p.v !== WIRE_VERSION) return `v must be ${WIRE_VERSION}`;
  if (typeof p.key_id !== 'string' || !KEY_ID.test(p.key_id)) return 'key_id must be 16 lowercase hex digits';
  const command = p.type === 'command';
  const scoped = command || p.type === 'agent-config' || p.type === 'desired-state';
  // Present but ill-typed scope fields are refused on every kind: they would otherwise slip past the
  // target and tenant checks as "absent".
  for (const field of ['target', 'tenant'] as const) {
    if ((scoped || field in p) && !nonEmpty(p[field])) return `${field} must be a non-empty string`;
  }
  for (const field of ['issued_at', 'not_before', 'not_after'] as const) {
    if ((command || field in p) && parseTimestamp(p[field]) === null) return `${field} must be an RFC 3339 UTC timestamp`;
  }
  if ('not_before' in p && 'not_after' in p && parseTimestamp(p.not_before)! > parseTimestamp(p.not_after)!)
    return 'not_before is after not_after';
  if (command || 'nonce' in p) {
    const problem = nonceProblem(p.nonce);
    if (problem) return problem;
  }
  if (command) {
    if (!nonEmpty(p.command_id)) return 'command_id must be a non-empty string';
    if (!nonEmpty(p.op)) return 'op must be a non-empty string';
    if (!isPlainObject(p.args)) return 'args must be an object';
  }
  return null;
}
