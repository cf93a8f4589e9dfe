// The test PKI: a throwaway CA and a serving certificate for 127.0.0.1 and localhost (keys from node:crypto, certs by node-forge).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

export interface TestPki {
  caPem: string;
  certPem: string;
  keyPem: string;
}

const rsaKeyPair = (): { publicKeyPem: string; privateKeyPem: string } => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
};

/** A positive serial number (Go rejects negative ones). */
const serial = (): string => `01${randomBytes(15).toString('hex')}`;

const makeCert = (
  subjectCN: string,
  publicKeyPem: string,
  years: number,
  extensions: object[],
  issuer?: { cert: forge.pki.Certificate; keyPem: string },
  selfKeyPem?: string,
): forge.pki.Certificate => {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKeyPem);
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(Date.now() - 3600_000);
  cert.validity.notAfter = new Date(Date.now() + years * 365 * 24 * 3600_000);
  cert.setSubject([{ name: 'commonName', value: subjectCN }]);
  cert.setIssuer(issuer ? issuer.cert.subject.attributes : [{ name: 'commonName', value: subjectCN }]);
  cert.setExtensions(extensions);
  const signingKey = forge.pki.privateKeyFromPem(issuer ? issuer.keyPem : (selfKeyPem ?? ''));
  cert.sign(signingKey, forge.md.sha256.create());
  return cert;
};

let cached: TestPki | undefined;

/** One PKI per process: generating RSA keys is the slow part, and every server of a test file can share it. */
export const testPki = (): TestPki => {
  if (cached) return cached;
  const ca = rsaKeyPair();
  const caCert = makeCert(
    'navin-test-kubernetes-ca',
    ca.publicKeyPem,
    10,
    [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
      { name: 'subjectKeyIdentifier' },
    ],
    undefined,
    ca.privateKeyPem,
  );
  const server = rsaKeyPair();
  const serverCert = makeCert(
    'kube-apiserver',
    server.publicKeyPem,
    1,
    [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 2, value: 'kubernetes' },
          { type: 2, value: 'kubernetes.default' },
          { type: 2, value: 'kubernetes.default.svc' },
          { type: 2, value: 'kubernetes.default.svc.cluster.local' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
    { cert: caCert, keyPem: ca.privateKeyPem },
  );
  cached = {
    caPem: forge.pki.certificateToPem(caCert),
    certPem: forge.pki.certificateToPem(serverCert),
    keyPem: server.privateKeyPem,
  };
  return cached;
};
