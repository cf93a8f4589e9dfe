// manager.pem: the manager's Ed25519 public key as SPKI PEM (RFC 8410), readable by openssl and node:crypto.
// Pure JS so the console can read a PEM an auditor drops in, without Node.
import { fromBase64, toBase64 } from './encoding';
import { WireError } from './errors';

const SPKI_PREFIX = Uint8Array.of(0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00);
const BEGIN = '-----BEGIN PUBLIC KEY-----';
const END = '-----END PUBLIC KEY-----';

/** SPKI PEM of a raw 32-byte Ed25519 public key, with a trailing newline as openssl writes it. */
export function publicKeyToPem(raw: Uint8Array): string {
  if (!(raw instanceof Uint8Array) || raw.length !== 32) throw new WireError('pem_invalid', 'an Ed25519 public key is 32 bytes');
  const der = new Uint8Array(SPKI_PREFIX.length + 32);
  der.set(SPKI_PREFIX, 0);
  der.set(raw, SPKI_PREFIX.length);
  const body = toBase64(der).replace(/.{1,64}/g, '$&\n');
  return `${BEGIN}\n${body}${END}\n`;
}

/**
 * The raw 32-byte key of an Ed25519 SPKI PEM. Strict: one PUBLIC KEY block and nothing but whitespace around
 * it, a base64 body, and a DER that is exactly the Ed25519 SPKI header plus 32 bytes (so no other algorithm,
 * no parameters, no trailing data). Anything else throws WireError pem_invalid.
 */
export function publicKeyFromPem(pem: string): Uint8Array {
  if (typeof pem !== 'string') throw new WireError('pem_invalid', 'the PEM must be text');
  const text = pem.trim();
  if (!text.startsWith(BEGIN) || !text.endsWith(END)) throw new WireError('pem_invalid', `expected one "${BEGIN}" block`);
  const body = text.slice(BEGIN.length, text.length - END.length);
  if (body.includes('-----')) throw new WireError('pem_invalid', 'expected exactly one PEM block');
  let der: Uint8Array;
  try {
    der = fromBase64(body.replace(/[ \t\r\n]+/g, ''));
  } catch {
    throw new WireError('pem_invalid', 'the PEM body is not base64');
  }
  if (der.length !== SPKI_PREFIX.length + 32 || SPKI_PREFIX.some((b, i) => der[i] !== b)) {
    throw new WireError('pem_invalid', 'not an Ed25519 SubjectPublicKeyInfo (302a300506032b6570032100 + 32 bytes)');
  }
  return der.slice(SPKI_PREFIX.length);
}
