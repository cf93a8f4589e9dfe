// The manager CA's trust update (issue 34, CA rotation): a signed command on the existing channel that hands an
// agent the CA certificates it is to trust for the gateway, the issuing one first, and may ask it to renew its
// client certificate now. Imported by both sides; imports nothing from either.
import { isPlainObject } from './payloads';

export const OP_CA_TRUST = 'ca.trust';

export interface CaTrustArgs {
  /** The rotation this update belongs to (for the agent's log and the manager's progress). */
  rotation_id: string;
  /** PEM certificates, the CA that issues today first: what the agent's ca.crt becomes. */
  ca_pems: string[];
  /** Renew the client certificate now, under the issuing CA, whatever its age. */
  renew: boolean;
}

export interface CaTrustResult {
  /** How many CA certificates the agent trusts now. */
  trusted: number;
  /** The renewal's outcome when one was asked (renewed, failed, standby). */
  renewal: string | null;
}

/** At most the old and the new CA (and a third while an aborted rotation's is still trusted). */
export const MAX_TRUSTED_CAS = 3;
const MAX_PEM_CHARS = 16_384;
const PEM = /^-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+-----END CERTIFICATE-----\s*$/;

/** Why `args` is not a trust update, or null if it is one. */
export function caTrustProblem(args: unknown): string | null {
  if (!isPlainObject(args)) return 'args must be an object';
  if (typeof args.rotation_id !== 'string' || args.rotation_id.length === 0 || args.rotation_id.length > 64)
    return 'rotation_id must be a string of 1 to 64 characters';
  if (typeof args.renew !== 'boolean') return 'renew must be a boolean';
  const pems = args.ca_pems;
  if (!Array.isArray(pems) || pems.length === 0 || pems.length > MAX_TRUSTED_CAS)
    return `ca_pems must hold 1 to ${MAX_TRUSTED_CAS} certificates`;
  for (const p of pems)
    if (typeof p !== 'string' || p.length > MAX_PEM_CHARS || !PEM.test(p)) return 'each of ca_pems must be one PEM certificate';
  return null;
}

/** The PEM bundle an agent keeps as its ca.crt: the certificates one after the other, the issuing one first. */
export const caBundle = (pems: readonly string[]): string => pems.map((p) => `${p.trim()}\n`).join('');
