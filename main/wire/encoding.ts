// Byte encodings of the wire contract (base64url for signatures and nonces, base64 for PEM, hex) and key ids.
// Portable on purpose: no Buffer, no atob, no node:crypto, so the renderer computes the same bytes as Node.
import { sha256 } from '@noble/hashes/sha2.js';
import { WireError } from './errors';

const URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const STD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function decodeTable(alphabet: string): Int16Array {
  const table = new Int16Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
}
const URL_TABLE = decodeTable(URL_ALPHABET);
const STD_TABLE = decodeTable(STD_ALPHABET);

function encode(bytes: Uint8Array, alphabet: string, pad: boolean): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += alphabet[n >>> 18]! + alphabet[(n >>> 12) & 63]! + alphabet[(n >>> 6) & 63]! + alphabet[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += alphabet[n >>> 18]! + alphabet[(n >>> 12) & 63]! + (pad ? '==' : '');
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += alphabet[n >>> 18]! + alphabet[(n >>> 12) & 63]! + alphabet[(n >>> 6) & 63]! + (pad ? '=' : '');
  }
  return out;
}

// Strict on purpose: one byte string has exactly one accepted text, so a signature or nonce cannot be
// re-spelled (other padding, non-zero spare bits) into a different-looking but equivalent value.
function decode(text: string, table: Int16Array, padded: boolean, what: string): Uint8Array {
  if (typeof text !== 'string') throw new WireError('encoding_invalid', `${what} must be a string`);
  let body = text;
  if (padded) {
    if (text.length % 4 !== 0) throw new WireError('encoding_invalid', `${what} length is not a multiple of 4`);
    body = text.endsWith('==') ? text.slice(0, -2) : text.endsWith('=') ? text.slice(0, -1) : text;
  }
  if (body.length % 4 === 1) throw new WireError('encoding_invalid', `${what} has an impossible length`);
  const out = new Uint8Array(Math.floor((body.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    const v = c < 128 ? table[c]! : -1;
    if (v < 0) throw new WireError('encoding_invalid', `${what} has an invalid character at ${i}`);
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >>> bits) & 0xff;
    }
  }
  if (bits > 0 && (acc & ((1 << bits) - 1)) !== 0) throw new WireError('encoding_invalid', `${what} has non-zero padding bits`);
  return out;
}

/** base64url without padding (RFC 4648 section 5). */
export function toBase64url(bytes: Uint8Array): string {
  return encode(bytes, URL_ALPHABET, false);
}

/** Strict base64url: no padding, no whitespace, only the URL alphabet, canonical spare bits. */
export function fromBase64url(text: string): Uint8Array {
  return decode(text, URL_TABLE, false, 'base64url');
}

/** Standard padded base64 (RFC 4648 section 4), as PEM bodies use. */
export function toBase64(bytes: Uint8Array): string {
  return encode(bytes, STD_ALPHABET, true);
}

/** Strict standard base64: padding required, no whitespace (strip line breaks first), canonical spare bits. */
export function fromBase64(text: string): Uint8Array {
  return decode(text, STD_TABLE, true, 'base64');
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Lowercase hex. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]!]!;
  return out;
}

/** Hex of either case; an odd length or a non-hex character throws encoding_invalid. */
export function fromHex(text: string): Uint8Array {
  if (typeof text !== 'string' || text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text))
    throw new WireError('encoding_invalid', 'hex must be an even number of hex digits');
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** The key id of an Ed25519 public key: the first 16 hex digits (64 bits) of sha256 over its 32 raw bytes. */
export function keyId(publicKey: Uint8Array): string {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32)
    throw new WireError('key_invalid', 'an Ed25519 public key is 32 bytes');
  return toHex(sha256(publicKey)).slice(0, 16);
}
