// A service's TLS files as a test lays them out on a host: the test CA's bundle, a certificate of the service for
// 127.0.0.1 (server and client auth, as etcd's members use theirs both ways) with its key, and another CA's bundle
// for the "wrong CA" cases. Written readable by the service's user (nobody, when the tests run as root).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';
import { testCas } from './tls-endpoints';

const DAY = 86_400_000;

export interface ServiceTlsFiles {
  caFile: string;
  otherCaFile: string;
  certFile: string;
  keyFile: string;
  /** The certificate's serial, as node:crypto prints it (upper-case hex). */
  serial: string;
  notAfter: Date;
}

/** A certificate of the test CA for 127.0.0.1 and localhost, valid from yesterday for `days` days, and its key. */
export function issueServiceCert(commonName: string, days: number): { certPem: string; keyPem: string; serial: string; notAfter: Date } {
  const { trusted } = testCas();
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = '01' + randomBytes(15).toString('hex');
  const notAfter = new Date(Date.now() + days * DAY);
  cert.validity.notBefore = new Date(Date.now() - DAY);
  cert.validity.notAfter = notAfter;
  cert.setSubject([{ name: 'commonName', value: commonName }]);
  cert.setIssuer(trusted.cert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true, clientAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
      ],
    },
  ]);
  cert.sign(trusted.key, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: privateKey, serial: cert.serialNumber.toUpperCase(), notAfter };
}

/** Writes the CA bundles and a certificate of `service` valid 90 days into dir. */
export function writeServiceTls(dir: string, service: string): ServiceTlsFiles {
  const { trusted, other } = testCas();
  const leaf = issueServiceCert(`${service}.127.0.0.1`, 90);
  const files = {
    caFile: join(dir, 'ca.pem'),
    otherCaFile: join(dir, 'other-ca.pem'),
    certFile: join(dir, `${service}.pem`),
    keyFile: join(dir, `${service}-key.pem`),
  };
  const write = (path: string, text: string) => {
    writeFileSync(path, text);
    // The service runs as nobody under root: it must read its key (a real host hands it over by LoadCredential=).
    chmodSync(path, 0o644);
  };
  write(files.caFile, trusted.certPem);
  write(files.otherCaFile, other.certPem);
  write(files.certFile, leaf.certPem);
  write(files.keyFile, leaf.keyPem);
  return { ...files, serial: leaf.serial, notAfter: leaf.notAfter };
}
