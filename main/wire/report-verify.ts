// The auditor's check of a signed acceptance report against manager.pem, shared by the CLI (node:crypto)
// and the console (noble): same rules as every envelope, with the key given as PEM instead of a trust list.
import type { Ed25519 } from './ed25519';
import { keyId } from './encoding';
import { verifyDocument, type VerifyFailure, type VerifyResult, type VerifyCode } from './envelope';
import { isWireError } from './errors';
import type { ReportPayload } from './payloads';
import { publicKeyFromPem } from './public-key-pem';

export type ReportVerifyCode = VerifyCode | 'pem_invalid';

export interface ReportVerifyOptions {
  now?: () => Date;
  clockSkewSeconds?: number;
}

/**
 * Verifies that jsonText is a document of type "report" signed by the key in publicKeyPem. Never throws.
 * A report signed by any other key is key_unknown, even when it names that key's id.
 */
export function verifyReport(
  jsonText: string,
  publicKeyPem: string,
  impl: Ed25519,
  options: ReportVerifyOptions = {},
): VerifyResult<ReportPayload, ReportVerifyCode> {
  let publicKey: Uint8Array;
  try {
    publicKey = publicKeyFromPem(publicKeyPem);
  } catch (error) {
    const failure: VerifyFailure<ReportVerifyCode> = {
      ok: false,
      code: 'pem_invalid',
      message: isWireError(error) ? error.message : 'the public key is not an Ed25519 PEM',
    };
    return failure;
  }
  if (typeof jsonText !== 'string') return { ok: false, code: 'malformed', message: 'the report must be JSON text' };
  return verifyDocument(jsonText, { impl, trustedKeys: new Map([[keyId(publicKey), publicKey]]), expectedType: 'report', ...options });
}
