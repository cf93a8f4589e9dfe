// An agent's client certificate and key switched in its identity folder as one pair: both written beside as
// tls.key.next (before the CSR leaves) and tls.crt.next, each whole or absent (writeAtomic), then renamed over
// tls.key and tls.crt. A stop between the two renames is finished at the next start (finishCertificateSwitch),
// so the folder never holds a key and a certificate that do not belong together. folderCertificateStore is the node agent's CertificateStore.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { syncDir, writeAtomic } from './atomic-file';
import type { CertificatePair, CertificateStore } from './certificate-store';

const CERT = 'tls.crt';
const KEY = 'tls.key';
const next = (file: string): string => `${file}.next`;

/** Whether `certPem` is the certificate of the private key `keyPem` (false for anything unreadable). */
export function certificateMatchesKey(certPem: string, keyPem: string): boolean {
  try {
    return new X509Certificate(certPem).checkPrivateKey(createPrivateKey(keyPem));
  } catch {
    return false;
  }
}

/**
 * Writes a new key beside the folder's (tls.key.next), before its CSR is sent: a folder the agent cannot write
 * (a read-only mount) fails here, and no certificate is asked for that could not be kept.
 */
export function stageKey(dir: string, keyPem: string): void {
  writeAtomic(join(dir, next(KEY)), Buffer.from(keyPem), 0o600);
}

/**
 * Puts the certificate of the staged key (stageKey) in place of the folder's pair; throws, the old pair untouched,
 * if it cannot.
 */
export function switchCertificate(dir: string, certPem: string, keyPem: string): void {
  if (!certificateMatchesKey(certPem, keyPem)) throw new Error('the new certificate is not the one of the new key');
  if (readFileSync(join(dir, next(KEY)), 'utf8') !== keyPem) throw new Error('the staged key is not the one of this certificate');
  writeAtomic(join(dir, next(CERT)), Buffer.from(certPem), 0o644);
  renameSync(join(dir, next(KEY)), join(dir, KEY));
  renameSync(join(dir, next(CERT)), join(dir, CERT));
  syncDir(dir);
}

/**
 * Finishes a switch a stop interrupted: a complete tls.crt.next whose key is tls.key.next (no rename done) or
 * tls.key (the key renamed) goes in place; a partial one is dropped, the folder's pair kept.
 */
export function finishCertificateSwitch(dir: string): void {
  const certNext = join(dir, next(CERT));
  const keyNext = join(dir, next(KEY));
  if (!existsSync(certNext)) return void rmSync(keyNext, { force: true });
  const cert = readFileSync(certNext, 'utf8');
  const pendingKey = existsSync(keyNext) ? readFileSync(keyNext, 'utf8') : undefined;
  if (pendingKey !== undefined && certificateMatchesKey(cert, pendingKey)) renameSync(keyNext, join(dir, KEY));
  const key = join(dir, KEY);
  if (existsSync(key) && certificateMatchesKey(cert, readFileSync(key, 'utf8'))) renameSync(certNext, join(dir, CERT));
  rmSync(certNext, { force: true });
  rmSync(keyNext, { force: true });
  syncDir(dir);
}

/** The pair kept in an identity folder (the node agent's, or a cluster agent's run outside a pod). */
export function folderCertificateStore(dir: string): CertificateStore {
  return {
    stage: async (keyPem) => stageKey(dir, keyPem),
    commit: async (previousCertPem, next) => {
      if (readFileSync(join(dir, CERT), 'utf8') !== previousCertPem)
        throw new Error(`${join(dir, CERT)} is no longer the certificate renewed`);
      switchCertificate(dir, next.certPem, next.keyPem);
    },
    current: async (): Promise<CertificatePair> => ({
      certPem: readFileSync(join(dir, CERT), 'utf8'),
      keyPem: readFileSync(join(dir, KEY), 'utf8'),
    }),
  };
}
