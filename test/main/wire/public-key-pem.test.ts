// manager.pem: what we write, openssl and node:crypto read; what we read is exactly an Ed25519 SPKI.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findOpenssl } from './openssl';
import { nodeEd25519 } from '../../../main/wire/ed25519-node';
import { toBase64 } from '../../../main/wire/encoding';
import { WireError } from '../../../main/wire/errors';
import { publicKeyFromPem, publicKeyToPem } from '../../../main/wire/public-key-pem';

const OPENSSL = findOpenssl();

function pemCode(pem: string): string | undefined {
  try {
    publicKeyFromPem(pem);
  } catch (error) {
    expect(error).toBeInstanceOf(WireError);
    return (error as WireError).code;
  }
  return undefined;
}

describe('public key PEM', () => {
  const pub = nodeEd25519.publicKey(nodeEd25519.generateSecretKey());

  it('writes the same SPKI PEM node:crypto writes, and reads it back', () => {
    const pem = publicKeyToPem(pub);
    const key = createPublicKey(pem);
    expect(key.asymmetricKeyType).toBe('ed25519');
    expect(key.export({ format: 'pem', type: 'spki' })).toBe(pem);
    expect(publicKeyFromPem(pem)).toEqual(pub);
  });

  it('writes a PEM that openssl reads as an ED25519 public key', (ctx) => {
    if (OPENSSL === null) return ctx.skip('openssl is not installed (not on PATH nor in /usr/bin): cannot check the PEM with it');
    const dir = mkdtempSync(join(tmpdir(), 'navin-pem-'));
    try {
      writeFileSync(join(dir, 'manager.pem'), publicKeyToPem(pub));
      const out = execFileSync(OPENSSL, ['pkey', '-pubin', '-in', join(dir, 'manager.pem'), '-text', '-noout'], { encoding: 'utf8' });
      expect(out).toMatch(/ED25519 Public-Key/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads PEMs with CRLF line ends and surrounding whitespace', () => {
    const { publicKey } = generateKeyPairSync('ed25519');
    const pem = publicKey.export({ format: 'pem', type: 'spki' }) as string;
    expect(publicKeyFromPem(`\r\n  ${pem.replace(/\n/g, '\r\n')}  \n`)).toEqual(
      new Uint8Array(publicKey.export({ format: 'der', type: 'spki' }).subarray(12)),
    );
  });

  it('refuses anything but one Ed25519 SPKI block with pem_invalid', () => {
    const good = publicKeyToPem(pub);
    const body = (der: Uint8Array): string => `-----BEGIN PUBLIC KEY-----\n${toBase64(der)}\n-----END PUBLIC KEY-----\n`;
    const der = createPublicKey(good).export({ format: 'der', type: 'spki' });
    const x25519 = generateKeyPairSync('x25519').publicKey.export({ format: 'pem', type: 'spki' }) as string;
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'pem', type: 'spki' }) as string;
    const bad = [
      '',
      'not a pem',
      good.replace('PUBLIC KEY', 'PRIVATE KEY'),
      good + good,
      `garbage\n${good}`,
      good.replace(/\n(.)/, '\n!$1'),
      body(new Uint8Array([...der, 0])),
      body(der.subarray(0, der.length - 1)),
      x25519,
      rsa,
    ];
    for (const pem of bad) expect(pemCode(pem), pem).toBe('pem_invalid');
    expect(() => publicKeyToPem(pub.subarray(1))).toThrow(WireError);
  });
});
