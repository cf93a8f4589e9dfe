// A renewed certificate and its key switch in the identity folder as one pair: a stop between the two renames is
// finished at the next start, a partial or foreign leftover is dropped, and the folder's pair is never mixed.
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';
import { describe, expect, onTestFinished, test } from 'vitest';
import { certificateMatchesKey, finishCertificateSwitch, stageKey, switchCertificate } from '../../agent/certificate-files';
import { tempDir } from '../support/temp-dir';

/** A self-signed certificate and its key, enough for the pair checks. */
function pair(cn: string): { certPem: string; keyPem: string } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const key = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date();
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  cert.setSubject([{ name: 'commonName', value: cn }]);
  cert.setIssuer([{ name: 'commonName', value: cn }]);
  cert.sign(key, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem };
}

function folder(current: { certPem: string; keyPem: string }): string {
  const dir = tempDir('navin-identity-');
  onTestFinished(dir.remove);
  writeFileSync(join(dir.path, 'tls.crt'), current.certPem);
  writeFileSync(join(dir.path, 'tls.key'), current.keyPem);
  return dir.path;
}

const files = (dir: string) => ({
  certPem: readFileSync(join(dir, 'tls.crt'), 'utf8'),
  keyPem: readFileSync(join(dir, 'tls.key'), 'utf8'),
});

describe('the certificate switch in the identity folder', () => {
  const old = pair('old');
  const renewed = pair('new');

  test('a staged key and its certificate replace the pair, nothing left beside', () => {
    const dir = folder(old);
    stageKey(dir, renewed.keyPem);
    switchCertificate(dir, renewed.certPem, renewed.keyPem);
    expect(files(dir)).toEqual(renewed);
    expect([existsSync(join(dir, 'tls.key.next')), existsSync(join(dir, 'tls.crt.next'))]).toEqual([false, false]);
  });

  test('a certificate that is not the staged key’s is refused and the old pair stays', () => {
    const dir = folder(old);
    stageKey(dir, renewed.keyPem);
    expect(() => switchCertificate(dir, old.certPem, renewed.keyPem)).toThrow(/not the one of the new key/);
    expect(() => switchCertificate(dir, pair('other').certPem, renewed.keyPem)).toThrow();
    expect(files(dir)).toEqual(old);
  });

  test('a stop after the key was renamed is finished at the next start', () => {
    const dir = folder(old);
    writeFileSync(join(dir, 'tls.crt.next'), renewed.certPem);
    writeFileSync(join(dir, 'tls.key.next'), renewed.keyPem);
    renameSync(join(dir, 'tls.key.next'), join(dir, 'tls.key'));
    expect(certificateMatchesKey(files(dir).certPem, files(dir).keyPem)).toBe(false);
    finishCertificateSwitch(dir);
    expect(files(dir)).toEqual(renewed);
  });

  test('a stop before any rename is finished too, and a partial or lone leftover is dropped', () => {
    const both = folder(old);
    writeFileSync(join(both, 'tls.crt.next'), renewed.certPem);
    writeFileSync(join(both, 'tls.key.next'), renewed.keyPem);
    finishCertificateSwitch(both);
    expect(files(both)).toEqual(renewed);

    const partial = folder(old);
    writeFileSync(join(partial, 'tls.crt.next'), renewed.certPem.slice(0, 200));
    writeFileSync(join(partial, 'tls.key.next'), renewed.keyPem);
    finishCertificateSwitch(partial);
    expect(files(partial)).toEqual(old);
    expect([existsSync(join(partial, 'tls.key.next')), existsSync(join(partial, 'tls.crt.next'))]).toEqual([false, false]);

    const staged = folder(old);
    stageKey(staged, renewed.keyPem);
    finishCertificateSwitch(staged);
    expect(files(staged)).toEqual(old);
    expect(existsSync(join(staged, 'tls.key.next'))).toBe(false);
  });
});
