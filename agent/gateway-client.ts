// An agent's only outbound channel: HTTPS to the manager's gateway with its client certificate, the manager
// CA as the only trust anchor, TLS 1.2 or newer, and never the environment's HTTP(S)_PROXY. The cluster agent
// and the node agent use it with their own routes.
import { isIP } from 'node:net';
import { Agent, request } from 'node:https';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import { AGENT_HEADERS, GATEWAY_PATHS, type CommandsResponse, type Receipt, type ReceiptsResponse } from '../main/wire/protocol';
import type { CertificateRenewalResponse } from '../main/wire/certificate-renewal';
import type { CommonConfig, Identity } from './identity';

/** Far above any answer of the gateway (a few signed commands): a larger one is refused, not buffered. */
const MAX_ANSWER_BYTES = 64 << 20;

export class GatewayUnreachable extends Error {
  constructor(
    message: string,
    readonly status?: number,
    /** A 429's Retry-After, in seconds. */
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

/** A call cut because the agent switched to its renewed certificate: made again at once, not a lost manager. */
export class CertificateSwitched extends GatewayUnreachable {}

/** Longest Retry-After honoured: a gateway asking for more is waited this long, then asked again. */
export const MAX_RETRY_AFTER_S = 300;

/** A Retry-After in seconds, at least 1 (delta form; an HTTP date is read against this host's clock), or undefined. */
export function retryAfterOf(value: string | string[] | undefined): number | undefined {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!v) return undefined;
  const s = /^\d+$/.test(v) ? Number(v) : (Date.parse(v) - Date.now()) / 1000;
  return Number.isFinite(s) ? Math.min(Math.max(s, 1), MAX_RETRY_AFTER_S) : undefined;
}

export interface ReceiptsAnswer extends ReceiptsResponse {
  refused?: boolean;
}

export interface GatewayClient {
  commands(waitS: number): Promise<CommandsResponse>;
  receipts(receipts: Receipt[]): Promise<ReceiptsAnswer>;
  report(report: unknown): Promise<void>;
  /** POSTs to the progress route (node agent). */
  progress(body: unknown): Promise<void>;
  close(): void;
}

/** The client certificate an agent's calls go with, renewed on its certificate route. */
export interface CertificateChannel {
  /** Sends a CSR on the certificate route; answers the new certificate (the key stays with the agent). */
  renewCertificate(csrPem: string): Promise<CertificateRenewalResponse>;
  /** Every later call uses this certificate and key; calls still open on the previous one are cut. */
  useCertificate(certPem: string, keyPem: string): void;
}

export interface GatewayPaths {
  commands: string;
  report: string;
  receipts: string;
  progress?: string;
  certificate?: string;
}

export function gatewayClient(
  identity: Identity<CommonConfig>,
  replica: string,
  version: string,
  paths: GatewayPaths = GATEWAY_PATHS,
): GatewayClient & CertificateChannel {
  const base = new URL(identity.config.gateway_url);
  // An explicit agent: Node's https never reads HTTPS_PROXY itself, and no proxy agent is ever installed.
  const tlsAgent = (cert: string, key: string): Agent =>
    new Agent({
      keepAlive: true,
      maxSockets: 4,
      ca: identity.caPem,
      cert,
      key,
      // SNI takes DNS names only (an IP there is Node's DEP0123): for an IP, verify the certificate's IP SAN instead.
      ...(isIP(identity.config.server_name)
        ? { checkServerIdentity: (_host: string, c: PeerCertificate) => checkServerIdentity(identity.config.server_name, c) }
        : { servername: identity.config.server_name }),
      minVersion: 'TLSv1.2',
      rejectUnauthorized: true,
    });
  let agent = tlsAgent(identity.certPem, identity.keyPem);

  // After a 429 no call leaves before the gateway's Retry-After: monotonic, shared by every route of this agent.
  let holdUntil = 0;
  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

  async function call<T>(method: 'GET' | 'POST', path: string, body: unknown, timeoutMs: number): Promise<T> {
    const held = holdUntil - performance.now();
    if (held > 0) await sleep(held);
    return send<T>(method, path, body, timeoutMs);
  }

  function send<T>(method: 'GET' | 'POST', path: string, body: unknown, timeoutMs: number): Promise<T> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const via = agent;
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
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > MAX_ANSWER_BYTES) return void req.destroy(new Error(`an answer over ${MAX_ANSWER_BYTES >> 20} MiB`));
            chunks.push(c);
          });
          res.on('end', () => {
            clearTimeout(whole);
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown;
            try {
              parsed = text ? JSON.parse(text) : {};
            } catch {
              return reject(new GatewayUnreachable(`the gateway answered ${res.statusCode} with a body that is not JSON`, res.statusCode));
            }
            if (res.statusCode === 200) return resolve(parsed as T);
            // Receipts the manager will never take (another cluster's or unknown command) come back 403 with those it took.
            if (res.statusCode === 403 && path === paths.receipts && Array.isArray((parsed as ReceiptsResponse).accepted))
              return resolve({ ...(parsed as object), refused: true } as T);
            const err = (parsed as { error?: { code?: string; message?: string } }).error;
            const retryAfterS = res.statusCode === 429 ? (retryAfterOf(res.headers['retry-after']) ?? 1) : undefined;
            if (retryAfterS !== undefined) holdUntil = Math.max(holdUntil, performance.now() + retryAfterS * 1000);
            reject(
              new GatewayUnreachable(
                `the gateway answered ${res.statusCode}: ${err?.code ?? ''} ${err?.message ?? ''}`.trim(),
                res.statusCode,
                retryAfterS,
              ),
            );
          });
          res.on('error', (e) => reject(new GatewayUnreachable(e.message)));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      // The idle timeout alone let a gateway that trickles bytes hold a call for ever: the whole call has one too.
      const whole = setTimeout(() => req.destroy(new Error(`no whole answer within ${timeoutMs / 1000} s`)), timeoutMs);
      req.on('close', () => clearTimeout(whole));
      req.on('error', (e) => {
        const why = (e as NodeJS.ErrnoException).code ?? e.message;
        if (via !== agent) return reject(new CertificateSwitched(`a call on the previous certificate was cut (${why})`));
        reject(new GatewayUnreachable(`cannot reach the gateway at ${base.origin}: ${why}`));
      });
      req.end(payload);
    });
  }

  return {
    commands: (waitS) => call<CommandsResponse>('GET', `${paths.commands}?wait=${waitS}`, undefined, (waitS + 10) * 1000),
    receipts: (receipts) => call<ReceiptsAnswer>('POST', paths.receipts, { receipts }, 15_000),
    report: async (report) => {
      await call('POST', paths.report, report, 15_000);
    },
    progress: async (body) => {
      if (!paths.progress) throw new Error('this agent has no progress route');
      await call('POST', paths.progress, body, 10_000);
    },
    renewCertificate: (csr) => {
      if (!paths.certificate) throw new Error('this agent has no certificate route');
      return call<CertificateRenewalResponse>('POST', paths.certificate, { csr }, 30_000);
    },
    useCertificate: (certPem, keyPem) => {
      const previous = agent;
      agent = tlsAgent(certPem, keyPem);
      previous.destroy();
    },
    close: () => agent.destroy(),
  };
}
