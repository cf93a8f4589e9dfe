// A bare mTLS client for gateway tests: one HTTPS request with a given client certificate.
import { readFileSync } from 'node:fs';
import { request } from 'node:https';

// The agent this client plays is of this build (read as text: the e2e loader takes no JSON imports).
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface ClientCert {
  certPem: string;
  keyPem: string;
  caPem: string;
}

export function gatewayCall(
  url: string,
  method: string,
  path: string,
  cert: ClientCert | undefined,
  body?: unknown,
  servername = 'localhost',
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const u = new URL(path, url);
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method,
        ca: cert?.caPem,
        cert: cert?.certPem,
        key: cert?.keyPem,
        servername,
        headers: { 'Content-Type': 'application/json', 'x-navin-replica': 'test-replica', 'x-navin-agent-version': VERSION },
        agent: false,
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
