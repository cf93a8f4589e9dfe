// One TLS handshake with a listener, offering exactly the protocol versions asked: what the server answered.
// A client limited to TLS 1.1 must lower OpenSSL's security level to offer it at all (at the default level
// OpenSSL 3 refuses TLS 1.1 on the client side, and the refusal would then not be the server's).
import { connect, type SecureVersion } from 'node:tls';

export type Handshake =
  | { ok: true; protocol: string | null }
  /** An alert received from the server has an OpenSSL code ERR_SSL_TLSV1_ALERT_<name>; a local refusal has another. */
  | { ok: false; code: string | undefined; message: string };

export interface HandshakeOptions {
  version: SecureVersion;
  /** A client certificate to present (the gateway's agents have one). */
  cert?: { certPem: string; keyPem: string };
}

export function handshake(url: string, o: HandshakeOptions): Promise<Handshake> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({
      host: u.hostname,
      port: Number(u.port),
      servername: 'localhost',
      minVersion: o.version,
      maxVersion: o.version,
      ciphers: 'DEFAULT@SECLEVEL=0',
      // Trust is not what is tested here: the protocol version is.
      rejectUnauthorized: false,
      ...(o.cert ? { cert: o.cert.certPem, key: o.cert.keyPem } : {}),
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.once('secureConnect', () => {
      const protocol = socket.getProtocol();
      socket.end();
      resolve({ ok: true, protocol });
    });
    socket.once('error', (e: NodeJS.ErrnoException) => resolve({ ok: false, code: e.code, message: e.message }));
  });
}
