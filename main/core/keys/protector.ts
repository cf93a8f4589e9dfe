// Encryption at rest of the manager's private keys. The desktop app seals with the OS key store (Electron
// safeStorage, wired in the shell); headless mode seals with AES-256-GCM under a master key read from a 0600
// key file in the data dir, or derived with scrypt from the passphrase file named by NAVIN_MASTER_KEY_FILE.
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CoreError } from '../errors';
import { writeFileAtomic } from '../fsutil/atomic-write';

export interface KeyProtector {
  readonly kind: string;
  seal(plain: Uint8Array): Buffer;
  open(sealed: Uint8Array): Buffer;
}

export class UnsealError extends CoreError {
  constructor(kind: string) {
    super(
      'key_unseal_failed',
      `a private key could not be decrypted with the ${kind} master key (was the data dir sealed with another key?)`,
    );
  }
}

const MAGIC = Buffer.from('NVK1');

/** AES-256-GCM: MAGIC | salt(16) | iv(12) | tag(16) | ciphertext. The salt only matters for passphrase keys. */
export class AesKeyProtector implements KeyProtector {
  private readonly keys = new Map<string, Buffer>();
  private readonly sealSalt = randomBytes(16);

  constructor(
    readonly kind: string,
    private readonly deriveKey: (salt: Buffer) => Buffer,
  ) {}

  private keyFor(salt: Buffer): Buffer {
    const id = salt.toString('hex');
    let key = this.keys.get(id);
    if (!key) {
      key = this.deriveKey(salt);
      this.keys.set(id, key);
    }
    return key;
  }

  seal(plain: Uint8Array): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keyFor(this.sealSalt), iv);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([MAGIC, this.sealSalt, iv, cipher.getAuthTag(), body]);
  }

  open(sealed: Uint8Array): Buffer {
    const buf = Buffer.from(sealed);
    if (buf.length < 48 || !buf.subarray(0, 4).equals(MAGIC)) throw new UnsealError(this.kind);
    const salt = buf.subarray(4, 20);
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.keyFor(salt), buf.subarray(20, 32));
      decipher.setAuthTag(buf.subarray(32, 48));
      return Buffer.concat([decipher.update(buf.subarray(48)), decipher.final()]);
    } catch {
      throw new UnsealError(this.kind);
    }
  }
}

export const MASTER_KEY_FILE = 'master.key';

/** The headless protector: NAVIN_MASTER_KEY_FILE's passphrase if set, else the data dir's own key file. */
export function headlessProtector(dataDir: string, env: NodeJS.ProcessEnv = process.env): KeyProtector {
  const passphraseFile = env.NAVIN_MASTER_KEY_FILE;
  if (passphraseFile) {
    let passphrase: string;
    try {
      passphrase = readFileSync(passphraseFile, 'utf8').trim();
    } catch (error) {
      throw new CoreError('master_key_unreadable', `NAVIN_MASTER_KEY_FILE ${passphraseFile} cannot be read: ${(error as Error).message}`);
    }
    if (passphrase.length < 12)
      throw new CoreError('master_key_weak', 'the passphrase in NAVIN_MASTER_KEY_FILE must be at least 12 characters');
    return new AesKeyProtector('passphrase', (salt) => scryptSync(passphrase, salt, 32, { N: 1 << 15, r: 8, p: 1, maxmem: 64 << 20 }));
  }
  const file = join(dataDir, MASTER_KEY_FILE);
  if (!existsSync(file)) writeFileAtomic(file, randomBytes(32), 0o600);
  if ((statSync(file).mode & 0o077) !== 0)
    throw new CoreError('master_key_exposed', `${file} must be readable by its owner only (chmod 600)`);
  const key = readFileSync(file);
  if (key.length !== 32) throw new CoreError('master_key_invalid', `${file} must hold exactly 32 bytes`);
  return new AesKeyProtector('key-file', () => key);
}
