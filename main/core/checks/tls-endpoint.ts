// A real TLS handshake with an endpoint, judged against an injected time: the preflight's TLS line (expired,
// untrusted or refused fail; under 14 days to expiry warns) and the checks of every TLS endpoint bound to a service.
import { isIP } from 'node:net';
import tls from 'node:tls';
import { TLS_WARN_DAYS, type TlsVerdict } from '../../wire/service-checks';
import { judgeHandshake } from '../../wire/tls-verdict';
import { networkFailure } from '../net/network-errors';

export type { TlsVerdict };

export interface TlsCertificateInfo {
  subject: string;
  issuer: string;
  serial: string;
  valid_from: string;
  valid_to: string;
  days_left: number;
  fingerprint256: string;
}

export interface TlsEndpointResult {
  target: string;
  server_name: string;
  verdict: TlsVerdict;
  handshake_completed: boolean;
  tls_version: string | null;
  cipher: string | null;
  certificate: TlsCertificateInfo | null;
  error_code: string | null;
  message: string;
  duration_ms: number;
}

export interface TlsProbeOptions {
  host: string;
  port: number;
  /** The name the certificate must carry; defaults to host (an IP is then checked against IP SANs). */
  serverName?: string;
  /** The only trust anchors; empty means the system store. */
  caPems: string[];
  now: Date;
  warnDays?: number;
  timeoutMs?: number;
  clientCert?: { certPem: string; keyPem: string };
}

export async function probeTlsEndpoint(opts: TlsProbeOptions): Promise<TlsEndpointResult> {
  const started = performance.now();
  const target = `${isIP(opts.host) === 6 ? `[${opts.host}]` : opts.host}:${opts.port}`;
  const serverName = opts.serverName ?? opts.host;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const base = { target, server_name: serverName, handshake_completed: false, tls_version: null, cipher: null, certificate: null };
  const finish = (r: Omit<TlsEndpointResult, 'duration_ms' | 'target' | 'server_name'>): TlsEndpointResult => ({
    target,
    server_name: serverName,
    ...r,
    duration_ms: Math.round(performance.now() - started),
  });

  return new Promise<TlsEndpointResult>((resolve) => {
    let tcpConnected = false;
    let settled = false;
    const socket = tls.connect({
      host: opts.host,
      port: opts.port,
      // SNI carries names only (RFC 6066); an IP is never sent as a server name.
      servername: isIP(serverName) ? undefined : serverName,
      ca: opts.caPems.length > 0 ? opts.caPems : undefined,
      minVersion: 'TLSv1.2',
      // The handshake must complete so that the certificate can be judged against `now`, not the machine's clock.
      rejectUnauthorized: false,
      // The name is checked below, once trust and time are judged, so that a wrong name has its own verdict.
      checkServerIdentity: () => undefined,
      cert: opts.clientCert?.certPem,
      key: opts.clientCert?.keyPem,
    });
    const done = (r: TlsEndpointResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => {
      const message = tcpConnected
        ? `TCP connected but no TLS handshake within ${timeoutMs} ms; is ${target} a TLS port?`
        : `no TCP connection to ${target} within ${timeoutMs} ms`;
      done(finish({ ...base, verdict: 'unreachable', error_code: 'timeout', message }));
    }, timeoutMs);
    socket.once('connect', () => (tcpConnected = true));
    socket.on('error', (error: NodeJS.ErrnoException) => done(finish({ ...base, ...classifyError(error, target, tcpConnected) })));
    socket.once('close', () => {
      if (!settled)
        done(
          finish({
            ...base,
            verdict: 'refused',
            error_code: 'ECONNRESET',
            message: `${target} closed the connection during the TLS handshake`,
          }),
        );
    });
    socket.once('secureConnect', () => {
      try {
        done(finish(judge(socket, opts, serverName)));
      } catch (error) {
        done(
          finish({
            ...base,
            handshake_completed: true,
            verdict: 'untrusted',
            error_code: 'certificate_unreadable',
            message: `the certificate of ${target} could not be read: ${(error as Error).message}`,
          }),
        );
      }
    });
  });
}

function classifyError(
  error: NodeJS.ErrnoException,
  target: string,
  tcpConnected: boolean,
): Pick<TlsEndpointResult, 'verdict' | 'error_code' | 'message'> {
  const code = error.code ?? 'unknown';
  const failure = networkFailure(code, error.message);
  if (!tcpConnected && failure === 'unreachable')
    return { verdict: 'unreachable', error_code: code, message: `${target} is unreachable: ${error.message}` };
  if (failure === 'not_tls')
    return {
      verdict: 'not_tls',
      error_code: code,
      message: `${target} does not speak TLS (${error.message}); is it a plain TCP or HTTP port?`,
    };
  if (failure === 'dropped')
    return { verdict: 'refused', error_code: code, message: `${target} closed the connection during the TLS handshake (${error.message})` };
  if (failure === 'tls_refused')
    return { verdict: 'refused', error_code: code, message: `${target} refused the TLS handshake: ${error.message}` };
  return { verdict: tcpConnected ? 'refused' : 'unreachable', error_code: code, message: `${target}: ${error.message}` };
}

/** The shared judge's verdict (main/wire/tls-verdict.ts), in this probe's shape. */
function judge(
  socket: tls.TLSSocket,
  opts: TlsProbeOptions,
  serverName: string,
): Omit<TlsEndpointResult, 'duration_ms' | 'target' | 'server_name'> {
  const hs = { handshake_completed: true, tls_version: socket.getProtocol(), cipher: socket.getCipher()?.name ?? null };
  const j = judgeHandshake(socket, {
    caPems: opts.caPems,
    serverName,
    now: opts.now,
    warnDays: opts.warnDays ?? TLS_WARN_DAYS,
    anchorsLabel: opts.caPems.length > 0 ? 'a trusted CA' : 'a CA the system trusts',
  });
  const c = j.certificate;
  const certificate: TlsCertificateInfo | null = c && {
    subject: c.subject,
    issuer: c.issuer,
    serial: c.serial,
    valid_from: c.not_before,
    valid_to: c.not_after,
    days_left: c.days_left,
    fingerprint256: c.fingerprint256,
  };
  return { ...hs, certificate, verdict: j.verdict, error_code: j.code, message: j.message };
}

export interface EndpointAddress {
  scheme: 'https' | 'tls' | 'http' | 'tcp';
  host: string;
  port: number;
}

const DEFAULT_PORTS: Partial<Record<EndpointAddress['scheme'], number>> = { https: 443, http: 80 };

/** Reads an endpoint URL as bound to a service; tls:// and tcp:// have no default port, so they must name one. */
export function parseEndpointUrl(url: string): EndpointAddress | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const scheme = u.protocol.slice(0, -1);
  if (scheme !== 'https' && scheme !== 'tls' && scheme !== 'http' && scheme !== 'tcp') return null;
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host) return null;
  const port = u.port ? Number(u.port) : DEFAULT_PORTS[scheme];
  if (port === undefined || !Number.isInteger(port) || port < 1 || port > 65535) return null;
  return { scheme, host, port };
}
