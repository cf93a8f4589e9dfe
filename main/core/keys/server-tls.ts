// A TLS server certificate of the manager CA kept in a folder (the key sealed), reissued when the names
// change, expiry is near or another CA issues now (a CA rotation): the console's listener and the agent gateway
// both use one. caPem is every CA trusted now (two during a rotation).
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';
import type { Clock } from '../clock';
import { writeFileAtomic } from '../fsutil/atomic-write';
import type { CertificateAuthority } from './ca';
import type { KeyProtector } from './protector';

const RENEW_BEFORE_MS = 30 * 86_400_000;

export interface TlsMaterial {
  certPem: string;
  keyPem: string;
  caPem: string;
}

export function serverTls(
  ca: CertificateAuthority,
  protector: KeyProtector,
  clock: Clock,
  kind: 'console' | 'gateway',
  dir: string,
  names: readonly string[],
): TlsMaterial {
  const certFile = join(dir, `${kind}.crt`);
  const keyFile = join(dir, `${kind}.key.sealed`);
  const namesFile = join(dir, `${kind}.names`);
  if (existsSync(certFile) && existsSync(keyFile) && existsSync(namesFile) && readFileSync(namesFile, 'utf8') === names.join(',')) {
    const certPem = readFileSync(certFile, 'utf8');
    const current = forge.pki.certificateFromPem(certPem).validity.notAfter.getTime() - clock.now().getTime() > RENEW_BEFORE_MS;
    if (current && new X509Certificate(certPem).verify(new X509Certificate(ca.issuerPem).publicKey)) {
      return { certPem, keyPem: protector.open(readFileSync(keyFile)).toString('utf8'), caPem: ca.certPem };
    }
  }
  const issued = ca.issueServer(kind, names);
  writeFileAtomic(keyFile, protector.seal(Buffer.from(issued.keyPem)));
  writeFileAtomic(certFile, issued.certPem, 0o644);
  writeFileAtomic(join(dir, 'ca.crt'), ca.certPem, 0o644);
  writeFileAtomic(namesFile, names.join(','), 0o644);
  return { certPem: issued.certPem, keyPem: issued.keyPem, caPem: ca.certPem };
}
