// The wire contract between manager and agent, in one import. Browser-safe: the node:crypto implementation
// is not re-exported here, so bundling this index never pulls in Node; import it from './ed25519-node'.
export { WireError, isWireError } from './errors';
export { canonicalize, canonicalBytes, parseJson, MAX_DEPTH } from './canonical-json';
export { toBase64url, fromBase64url, toBase64, fromBase64, toHex, fromHex, keyId } from './encoding';
export type { Ed25519 } from './ed25519';
export { nobleEd25519 } from './ed25519-noble';
export { publicKeyToPem, publicKeyFromPem } from './public-key-pem';
export { parseTimestamp, formatTimestamp } from './timestamps';
export { randomBytes, newNonce, newCommandId, MIN_NONCE_BYTES, MAX_NONCE_BYTES } from './random';
export { MemoryNonceStore, type NonceStore } from './nonce-store';
export * from './payloads';
export {
  createSigner,
  signDocument,
  buildCommand,
  verifyDocument,
  VERIFY_CODES,
  DEFAULT_CLOCK_SKEW_SECONDS,
  type Signer,
  type UnsignedPayload,
  type UnsignedCommand,
  type BuildCommandOptions,
  type VerifyCode,
  type VerifyFailure,
  type VerifySuccess,
  type VerifyResult,
  type VerifyOptions,
} from './envelope';
export { verifyReport, type ReportVerifyCode, type ReportVerifyOptions } from './report-verify';
export * from './service-checks';
