// A real TLS handshake to the agent gateway, made by the acceptance at run time: the manager CA is the only
// trust anchor, and the client presents no certificate (or one from a throwaway CA). A gateway that
// requires mTLS refuses the connection or the first request; one that answers has no client-certificate gate.
import { generateKeyPairSync } from 'node:crypto';
import { isIP } from 'node:net';
import { checkServerIdentity, connect, type PeerCertificate, type TLSSocket } from 'node:tls';
import forge from 'node-forge';
import { GATEWAY_PATHS } from '../../wire/protocol';
import { networkFailure } from '../net/network-errors';

/** Where the gateway listens and the name in its certificate (the serve command knows both). */
export interface GatewayAddress {
  host: string;
  port: number;
  serverName: string;
}

export interface ServerCertificateSeen {
  subject: string;
  issuer: string;
  serial: string;
  valid_from: string;
  valid_to: string;
  fingerprint256: string;
}

export interface ProbeResult {
  target: string;
  server_name: string;
  client_certificate: 'none' | 'foreign-ca';
  /** The handshake finished from the client's side (with TLS 1.3 the server may still refuse right after). */
  handshake_completed: boolean;
  tls_version: string | null;
  cipher: string | null;
  server_certificate: ServerCertificateSeen | null;
  /** The gateway's certificate verified against the manager CA alone, for the expected name. */
  server_certificate_trusted: boolean;
  /** The gateway answered the HTTP request: it served a client it should have refused. */
  request_answered: boolean;
  http_status: number | null;
  /** How the gateway refused (TLS alert or error code), null when it did not. */
  refusal: string | null;
  /** A failure of the probe itself (nothing listening, untrusted certificate, timeout). */
  error: string | null;
  duration_ms: number;
}

/** A listener bound to every address is probed on loopback. */
function connectHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '::1';
  return host.replace(/^\[|\]$/g, '');
}

function certificateSeen(c: PeerCertificate | undefined): ServerCertificateSeen | null {
  if (!c || !c.subject) return null;
  const dn = (x: Record<string, string | string[]> | undefined): string =>
    Object.entries(x ?? {})
      .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : v}`)
      .join(', ');
  return {
    subject: dn(c.subject as unknown as Record<string, string>),
    issuer: dn(c.issuer as unknown as Record<string, string>),
    serial: c.serialNumber.toLowerCase(),
    valid_from: new Date(c.valid_from).toISOString(),
    valid_to: new Date(c.valid_to).toISOString(),
    fingerprint256: c.fingerprint256,
  };
}

let foreignIdentity: { certPem: string; keyPem: string } | undefined;

/** A self-signed client certificate from a CA the gateway has never seen (made once per process). */
function foreignClientCertificate(): { certPem: string; keyPem: string } {
  if (foreignIdentity) return foreignIdentity;
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 3_600_000);
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  const subject = [{ name: 'commonName', value: 'navin-acceptance-foreign-probe' }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([{ name: 'extKeyUsage', clientAuth: true }]);
  cert.sign(key, forge.md.sha256.create());
  foreignIdentity = { certPem: forge.pki.certificateToPem(cert), keyPem: privateKey };
  return foreignIdentity;
}

export function probeGateway(
  address: GatewayAddress,
  caPem: string,
  client: 'none' | 'foreign-ca',
  timeoutMs = 5_000,
): Promise<ProbeResult> {
  const started = performance.now();
  const host = connectHost(address.host);
  const result: ProbeResult = {
    target: `${isIP(host) === 6 ? `[${host}]` : host}:${address.port}`,
    server_name: address.serverName,
    client_certificate: client,
    handshake_completed: false,
    tls_version: null,
    cipher: null,
    server_certificate: null,
    server_certificate_trusted: false,
    request_answered: false,
    http_status: null,
    refusal: null,
    error: null,
    duration_ms: 0,
  };
  const identity = client === 'foreign-ca' ? foreignClientCertificate() : undefined;
  return new Promise((resolve) => {
    let settled = false;
    let answer = '';
    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      result.duration_ms = Math.round(performance.now() - started);
      resolve(result);
    };
    let socket: TLSSocket;
    try {
      socket = connect({
        host,
        port: address.port,
        // SNI carries DNS names only; an IP is checked against the certificate's IP SANs.
        servername: isIP(address.serverName) ? undefined : address.serverName,
        ca: [caPem],
        cert: identity?.certPem,
        key: identity?.keyPem,
        minVersion: 'TLSv1.2',
        rejectUnauthorized: true,
        checkServerIdentity: (_host, cert) => checkServerIdentity(address.serverName, cert),
      });
    } catch (error) {
      // Options TLS cannot use (an unreadable CA PEM): the probe could not start.
      result.error = `the TLS client could not start: ${(error as Error).message}`;
      resolve(result);
      return;
    }
    const timer = setTimeout(() => {
      if (result.handshake_completed && !result.request_answered)
        result.refusal ??= 'no answer to the request (connection held without reply)';
      else result.error ??= `timeout after ${timeoutMs} ms`;
      finish();
    }, timeoutMs);
    socket.once('secureConnect', () => {
      result.handshake_completed = true;
      result.server_certificate_trusted = socket.authorized;
      result.tls_version = socket.getProtocol();
      result.cipher = socket.getCipher()?.name ?? null;
      result.server_certificate = certificateSeen(socket.getPeerCertificate());
      // With TLS 1.3 the server judges the client certificate after the client's Finished: the refusal
      // arrives as an alert on the first read, so a request is what proves it.
      socket.write(`GET ${GATEWAY_PATHS.commands}?wait=0 HTTP/1.1\r\nHost: ${address.serverName}\r\nConnection: close\r\n\r\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(answer);
      if (m) {
        result.request_answered = true;
        result.http_status = Number(m[1]);
        finish();
      }
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? 'error';
      const failure = networkFailure(code);
      if (failure === 'tls_untrusted')
        result.error = `the gateway certificate is not trusted by the manager CA for ${address.serverName} (${code})`;
      else if (failure === 'unreachable') result.error = `the gateway cannot be reached at ${result.target} (${code})`;
      else {
        // OpenSSL's text is long and names its own source files; the code and the TLS alert number say it all.
        const alert = /SSL alert number (\d+)/.exec(error.message)?.[1];
        result.refusal = alert ? `${code} (TLS alert ${alert})` : code;
      }
      finish();
    });
    socket.once('close', () => {
      if (!settled && !result.request_answered && !result.error)
        result.refusal ??= result.handshake_completed
          ? 'connection closed by the gateway without an answer'
          : 'connection closed during the handshake';
      finish();
    });
  });
}
