// A throwaway service PKI made as the product makes it: a cluster's service CA (ServiceCa) signs, through
// signServiceCsr, the CSR of an RSA 2048 key made the way a node agent makes it, for server and client
// authentication. A test or a bench gets the certificates a host would hold, not look-alikes.
import { chownSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';
import { ServiceCa } from '../../main/core/certificates/service-ca';
import { signServiceCsr, type ServiceNames, type SignedServiceCertificate } from '../../main/core/certificates/csr-signing';
import { AesKeyProtector } from '../../main/core/keys/protector';

export interface ServicePki {
  caPem: string;
  /** The service's certificate, also the client certificate its checks present (etcd's client-cert-auth). */
  certPem: string;
  keyPem: string;
  signed: SignedServiceCertificate;
}

/** The files of a check's tls block, as the node agent lays them out on a host. */
export interface ServicePkiFiles {
  ca_file: string;
  cert_file: string;
  key_file: string;
}

/** A new service CA and one service certificate for `names`, valid from now for the product's default life. */
export function servicePki(names: ServiceNames, now = new Date()): ServicePki {
  const sealKey = randomBytes(32);
  const { ca } = ServiceCa.create(`test-${randomBytes(4).toString('hex')}`, new AesKeyProtector('test', () => sealKey), now);
  const { privateKey: keyPem } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const key = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  const csr = forge.pki.createCertificationRequest();
  csr.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  csr.setSubject([{ name: 'commonName', value: names.hostName }]);
  csr.sign(key, forge.md.sha256.create());
  const signed = signServiceCsr(ca, forge.pki.certificationRequestToPem(csr), names, { now });
  return { caPem: ca.certPem, certPem: signed.certPem, keyPem, signed };
}

/**
 * Writes the CA, the certificate and the key (0600) into `dir` as ca.pem, <service>.pem and <service>.key, owned
 * by `owner` when given (the service's user, which must read its own key).
 */
export function writeServicePki(dir: string, service: string, pki: ServicePki, owner?: { uid: number; gid: number }): ServicePkiFiles {
  const files: ServicePkiFiles = {
    ca_file: join(dir, 'ca.pem'),
    cert_file: join(dir, `${service}.pem`),
    key_file: join(dir, `${service}.key`),
  };
  writeFileSync(files.ca_file, pki.caPem, { mode: 0o644 });
  writeFileSync(files.cert_file, pki.certPem, { mode: 0o644 });
  writeFileSync(files.key_file, pki.keyPem, { mode: 0o600 });
  if (owner) for (const f of Object.values(files)) chownSync(f, owner.uid, owner.gid);
  return files;
}
