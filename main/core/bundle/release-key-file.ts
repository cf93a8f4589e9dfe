// The release key on the connected side: an Ed25519 key that signs offline bundles and nothing else, kept
// in its own file (0600) sealed with AES-256-GCM under a key derived by scrypt from a passphrase. The public
// half is in the clear, so exporting it needs no passphrase. It is never the manager's command key.
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { Ed25519 } from '../../wire/ed25519';
import { keyId } from '../../wire/encoding';
import { createSigner, type Signer } from '../../wire/envelope';
import { publicKeyFromPem, publicKeyToPem } from '../../wire/public-key-pem';
import { CoreError } from '../errors';
import { writeFileAtomic } from '../fsutil/atomic-write';

export const RELEASE_KEY_KIND = 'navin-release-key';
const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 << 20 } as const;
export const MIN_PASSPHRASE = 12;

interface ReleaseKeyFile {
  kind: typeof RELEASE_KEY_KIND;
  v: 1;
  key_id: string;
  label: string;
  created_at: string;
  public_key_pem: string;
  seal: {
    kdf: 'scrypt';
    n: number;
    r: number;
    p: number;
    salt: string;
    cipher: 'aes-256-gcm';
    iv: string;
    tag: string;
    ciphertext: string;
  };
}

export class ReleaseKeyError extends CoreError {}

/** The passphrase on the first line of a file; at least 12 characters. */
export function readPassphrase(file: string): string {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new ReleaseKeyError('passphrase_unreadable', `the passphrase file ${file} cannot be read: ${(error as Error).message}`);
  }
  const passphrase = text.split(/\r?\n/)[0] ?? '';
  if (passphrase.length < MIN_PASSPHRASE)
    throw new ReleaseKeyError('passphrase_weak', `the release key passphrase must be at least ${MIN_PASSPHRASE} characters`);
  return passphrase;
}

/** Creates a new release key file; refuses to overwrite one. Returns its id and public key PEM. */
export function createReleaseKeyFile(
  file: string,
  passphrase: string,
  impl: Ed25519,
  opts: { label?: string; now?: Date } = {},
): { key_id: string; public_key_pem: string } {
  if (existsSync(file)) throw new ReleaseKeyError('release_key_exists', `${file} already exists; a release key is never overwritten`);
  const seed = impl.generateSecretKey();
  const pub = impl.publicKey(seed);
  const id = keyId(pub);
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', scryptSync(passphrase, salt, 32, SCRYPT), iv);
  cipher.setAAD(Buffer.from(id));
  const ciphertext = Buffer.concat([cipher.update(seed), cipher.final()]);
  seed.fill(0);
  const doc: ReleaseKeyFile = {
    kind: RELEASE_KEY_KIND,
    v: 1,
    key_id: id,
    label: opts.label ?? 'release',
    created_at: (opts.now ?? new Date()).toISOString(),
    public_key_pem: publicKeyToPem(pub),
    seal: {
      kdf: 'scrypt',
      n: SCRYPT.N,
      r: SCRYPT.r,
      p: SCRYPT.p,
      salt: salt.toString('base64'),
      cipher: 'aes-256-gcm',
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      ciphertext: ciphertext.toString('base64'),
    },
  };
  writeFileAtomic(file, `${JSON.stringify(doc, null, 2)}\n`, 0o600);
  return { key_id: id, public_key_pem: doc.public_key_pem };
}

function readKeyFile(file: string): ReleaseKeyFile {
  let doc: ReleaseKeyFile;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8')) as ReleaseKeyFile;
  } catch (error) {
    throw new ReleaseKeyError('release_key_invalid', `${file} is not a release key file: ${(error as Error).message}`);
  }
  if (doc?.kind !== RELEASE_KEY_KIND || doc.v !== 1 || typeof doc.public_key_pem !== 'string' || !doc.seal)
    throw new ReleaseKeyError('release_key_invalid', `${file} is not a release key file`);
  return doc;
}

/** The public half of a release key file, as SPKI PEM, with its id. */
export function exportReleaseKey(file: string): { key_id: string; label: string; public_key_pem: string } {
  const doc = readKeyFile(file);
  const pub = publicKeyFromPem(doc.public_key_pem);
  if (keyId(pub) !== doc.key_id) throw new ReleaseKeyError('release_key_invalid', `${file}: the key id does not match the public key`);
  return { key_id: doc.key_id, label: doc.label, public_key_pem: doc.public_key_pem };
}

/** Opens the release key for signing; a wrong passphrase or an altered file is `release_key_unsealed_failed`. */
export function openReleaseKey(file: string, passphrase: string, impl: Ed25519): Signer {
  const doc = readKeyFile(file);
  const s = doc.seal;
  let seed: Buffer;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      scryptSync(passphrase, Buffer.from(s.salt, 'base64'), 32, { N: s.n, r: s.r, p: s.p, maxmem: 64 << 20 }),
      Buffer.from(s.iv, 'base64'),
    );
    decipher.setAAD(Buffer.from(doc.key_id));
    decipher.setAuthTag(Buffer.from(s.tag, 'base64'));
    seed = Buffer.concat([decipher.update(Buffer.from(s.ciphertext, 'base64')), decipher.final()]);
  } catch {
    throw new ReleaseKeyError('release_key_unseal_failed', `${file} cannot be opened with this passphrase (or the file was altered)`);
  }
  const signer = createSigner(impl, new Uint8Array(seed));
  seed.fill(0);
  if (signer.keyId !== doc.key_id || publicKeyToPem(signer.publicKey) !== doc.public_key_pem)
    throw new ReleaseKeyError('release_key_invalid', `${file}: the sealed key does not match its public key`);
  return signer;
}
