// A tiny OCI registry for the acceptance tests: HTTPS on loopback with its own CA (like an internal mirror),
// answering HEAD /v2/<repository>/manifests/<digest> with 200 for the manifests it holds and 404 otherwise.
import { createServer, type Server } from 'node:https';
import { generateKeyPairSync, randomBytes, createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import forge from 'node-forge';

export interface OciRegistry {
  url: string;
  caPem: string;
  requests: { method: string; path: string; accept: string | undefined }[];
  close(): Promise<void>;
}

/** A digest that looks real: sha256 of a label. */
export const digestOf = (label: string): string => `sha256:${createHash('sha256').update(label).digest('hex')}`;

function rsaKey(): { pem: string; key: forge.pki.rsa.PrivateKey } {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { pem: privateKey, key: forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey };
}

/** A CA and a server certificate for localhost / 127.0.0.1, made with node:crypto keys and node-forge. */
export function mirrorTls(): { caPem: string; certPem: string; keyPem: string } {
  const ca = rsaKey();
  const caCert = forge.pki.createCertificate();
  caCert.publicKey = forge.pki.setRsaPublicKey(ca.key.n, ca.key.e);
  caCert.serialNumber = randomBytes(8)
    .toString('hex')
    .replace(/^[89a-f]/, '1');
  caCert.validity.notBefore = new Date(Date.now() - 3_600_000);
  caCert.validity.notAfter = new Date(Date.now() + 86_400_000);
  const caName = [{ name: 'commonName', value: 'Internal Mirror Test CA' }];
  caCert.setSubject(caName);
  caCert.setIssuer(caName);
  caCert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
  ]);
  caCert.sign(ca.key, forge.md.sha256.create());

  const leaf = rsaKey();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(leaf.key.n, leaf.key.e);
  cert.serialNumber = randomBytes(8)
    .toString('hex')
    .replace(/^[89a-f]/, '1');
  cert.validity.notBefore = new Date(Date.now() - 3_600_000);
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  cert.setSubject([{ name: 'commonName', value: 'localhost' }]);
  cert.setIssuer(caName);
  cert.setExtensions([
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
      ],
    },
  ]);
  cert.sign(ca.key, forge.md.sha256.create());
  return { caPem: forge.pki.certificateToPem(caCert), certPem: forge.pki.certificateToPem(cert), keyPem: leaf.pem };
}

/** Starts the registry; `manifests` maps a repository to the digests it holds. */
export function startOciRegistry(manifests: Record<string, string[]>): Promise<OciRegistry> {
  const tls = mirrorTls();
  const requests: OciRegistry['requests'] = [];
  const server: Server = createServer({ key: tls.keyPem, cert: tls.certPem }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    requests.push({ method: req.method ?? '', path, accept: req.headers.accept });
    const m = /^\/v2\/(.+)\/manifests\/(sha256:[a-f0-9]{64})$/.exec(path);
    if (path === '/v2/' || path === '/v2') {
      res.writeHead(200, { 'Docker-Distribution-API-Version': 'registry/2.0' }).end();
      return;
    }
    if (m && (req.method === 'HEAD' || req.method === 'GET') && manifests[m[1]!]?.includes(m[2]!)) {
      res
        .writeHead(200, {
          'Content-Type': 'application/vnd.oci.image.index.v1+json',
          'Docker-Content-Digest': m[2]!,
          'Content-Length': '0',
        })
        .end();
      return;
    }
    res
      .writeHead(404, { 'Content-Type': 'application/json' })
      .end(req.method === 'HEAD' ? undefined : JSON.stringify({ errors: [{ code: 'MANIFEST_UNKNOWN', message: 'manifest unknown' }] }));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `https://127.0.0.1:${port}`,
        caPem: tls.caPem,
        requests,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
