// Real TLS endpoints on loopback for the TLS probe: valid, expired, expiring, untrusted and wrong-name
// certificates from a test CA made once per process (node-forge), and a plain TCP listener.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';
import forge from 'node-forge';

export type TlsEndpointKind = 'valid' | 'expired' | 'untrusted' | 'expiring' | 'wrong-name';

export interface TestEndpoint {
  host: '127.0.0.1';
  port: number;
  /** The CA that signed the certificate; for 'untrusted', a CA that did not. */
  caPem: string;
  notAfter: Date;
  stop(): Promise<void>;
}

const DAY = 86_400_000;

interface TestCa {
  certPem: string;
  cert: forge.pki.Certificate;
  key: forge.pki.rsa.PrivateKey;
}

function rsaKey(): { key: forge.pki.rsa.PrivateKey; pub: forge.pki.rsa.PublicKey; pem: string } {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  return { key, pub: forge.pki.setRsaPublicKey(key.n, key.e), pem: privateKey };
}

const serial = (): string => '01' + randomBytes(15).toString('hex');

function makeCa(name: string): TestCa {
  const k = rsaKey();
  const cert = forge.pki.createCertificate();
  cert.publicKey = k.pub;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(Date.now() - 365 * DAY);
  cert.validity.notAfter = new Date(Date.now() + 3650 * DAY);
  const subject = [{ name: 'commonName', value: name }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(k.key, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), cert, key: k.key };
}

let cas: { trusted: TestCa; other: TestCa } | undefined;
/** The test CAs, made once per process: RSA key generation is the slow part. */
export function testCas(): { trusted: TestCa; other: TestCa } {
  cas ??= { trusted: makeCa('Navin Test CA'), other: makeCa('Some Other CA') };
  return cas;
}

export function issueServerCert(ca: TestCa, names: string[], notBefore: Date, notAfter: Date): { certPem: string; keyPem: string } {
  const k = rsaKey();
  const cert = forge.pki.createCertificate();
  cert.publicKey = k.pub;
  cert.serialNumber = serial();
  cert.validity.notBefore = notBefore;
  cert.validity.notAfter = notAfter;
  cert.setSubject([{ name: 'commonName', value: names[0]! }]);
  cert.setIssuer(ca.cert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: names.map((n) => (net.isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })) },
  ]);
  cert.sign(ca.key, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: k.pem };
}

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });
}

function closer(server: net.Server, sockets: Set<net.Socket>): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
}

export async function startTlsEndpoint(opts: { kind: TlsEndpointKind; serverName?: string }): Promise<TestEndpoint> {
  const { trusted, other } = testCas();
  const name = opts.serverName ?? 'endpoint.navin.test';
  const now = Date.now();
  const notBefore = new Date(now - (opts.kind === 'expired' ? 60 : 1) * DAY);
  const notAfter = new Date(opts.kind === 'expired' ? now - DAY : opts.kind === 'expiring' ? now + 5 * DAY + 3_600_000 : now + 365 * DAY);
  const names = opts.kind === 'wrong-name' ? ['other.navin.test'] : [name, '127.0.0.1'];
  const leaf = issueServerCert(opts.kind === 'untrusted' ? other : trusted, names, notBefore, notAfter);
  const sockets = new Set<net.Socket>();
  const server = tls.createServer({ cert: leaf.certPem, key: leaf.keyPem, minVersion: 'TLSv1.2' }, (s) => s.end());
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('tlsClientError', () => undefined);
  const port = await listen(server);
  return { host: '127.0.0.1', port, caPem: trusted.certPem, notAfter, stop: closer(server, sockets) };
}

/** A TCP listener that answers like an HTTP server, the usual thing found on a port mistaken for TLS. */
export async function startPlainTcp(): Promise<{ host: '127.0.0.1'; port: number; stop(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
    s.once('data', () => s.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'));
  });
  const port = await listen(server);
  return { host: '127.0.0.1', port, stop: closer(server, sockets) };
}

/** A loopback port nothing listens on (bound, learnt and released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
