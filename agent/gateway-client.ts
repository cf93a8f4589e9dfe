// The agent's only outbound channel: HTTPS to the manager's gateway with its client certificate, the manager
// CA as the only trust anchor, TLS 1.2 or newer, and never the environment's HTTP(S)_PROXY.
import { isIP } from 'node:net';
import { Agent, request } from 'node:https';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import {
  AGENT_HEADERS,
  GATEWAY_PATHS,
  type CommandsResponse,
  type Receipt,
  type ReceiptsResponse,
  type ReportRequest,
} from '../main/wire/protocol';
import type { Identity } from './identity';

export class GatewayUnreachable extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface ReceiptsAnswer extends ReceiptsResponse {
  refused?: boolean;
}

export interface GatewayClient {
  commands(waitS: number): Promise<CommandsResponse>;
  receipts(receipts: Receipt[]): Promise<ReceiptsAnswer>;
  report(report: ReportRequest): Promise<void>;
  close(): void;
}

export function gatewayClient(identity: Identity, replica: string, version: string): GatewayClient {
  const base = new URL(identity.config.gateway_url);
  // An explicit agent: Node's https never reads HTTPS_PROXY itself, and no proxy agent is ever installed.
  const agent = new Agent({
    keepAlive: true,
    maxSockets: 4,
    ca: identity.caPem,
    cert: identity.certPem,
    key: identity.keyPem,
    // SNI takes DNS names only (an IP there is Node's DEP0123): for an IP, verify the certificate's IP SAN instead.
    ...(isIP(identity.config.server_name)
      ? { checkServerIdentity: (_host: string, cert: PeerCertificate) => checkServerIdentity(identity.config.server_name, cert) }
      : { servername: identity.config.server_name }),
    minVersion: 'TLSv1.2',
    rejectUnauthorized: true,
  });

  function call<T>(method: 'GET' | 'POST', path: string, body: unknown, timeoutMs: number): Promise<T> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = request(
        {
          host: base.hostname.replace(/^\[|\]$/g, ''),
          port: base.port || 443,
          path,
          method,
          agent,
          timeout: timeoutMs,
          headers: {
            [AGENT_HEADERS.replica]: replica,
            [AGENT_HEADERS.version]: version,
            ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown;
            try {
              parsed = text ? JSON.parse(text) : {};
            } catch {
              return reject(new GatewayUnreachable(`the gateway answered ${res.statusCode} with a body that is not JSON`, res.statusCode));
            }
            if (res.statusCode === 200) return resolve(parsed as T);
            // Receipts the manager will never take (another cluster's or unknown command) come back 403 with those it took.
            if (res.statusCode === 403 && path === GATEWAY_PATHS.receipts && Array.isArray((parsed as ReceiptsResponse).accepted))
              return resolve({ ...(parsed as object), refused: true } as T);
            const err = (parsed as { error?: { code?: string; message?: string } }).error;
            reject(
              new GatewayUnreachable(
                `the gateway answered ${res.statusCode}: ${err?.code ?? ''} ${err?.message ?? ''}`.trim(),
                res.statusCode,
              ),
            );
          });
          res.on('error', (e) => reject(new GatewayUnreachable(e.message)));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', (e) =>
        reject(new GatewayUnreachable(`cannot reach the gateway at ${base.origin}: ${(e as NodeJS.ErrnoException).code ?? e.message}`)),
      );
      req.end(payload);
    });
  }

  return {
    commands: (waitS) => call<CommandsResponse>('GET', `${GATEWAY_PATHS.commands}?wait=${waitS}`, undefined, (waitS + 10) * 1000),
    receipts: (receipts) => call<ReceiptsAnswer>('POST', GATEWAY_PATHS.receipts, { receipts }, 15_000),
    report: async (report) => {
      await call('POST', GATEWAY_PATHS.report, report, 15_000);
    },
    close: () => agent.destroy(),
  };
}
