// One TLS handshake with a service's endpoint, judged as the manager's TLS probe judges one (ok, expiring, expired,
// untrusted, name_mismatch, refused, unreachable, not_tls) against the check's clock, with the certificate as
// evidence; for a NATS server, after the INFO it sends in clear. The tls.handshake check, and the first step of
// every service check over TLS (its evidence, and a clear verdict before a client library's vaguer error).
// The judging itself is the manager's too (main/wire/tls-verdict.ts).
import { connect as netConnect, isIP } from 'node:net';
import tls from 'node:tls';
import {
  TLS_WARN_DAYS,
  type CheckErrorCode,
  type CheckOutcome,
  type CheckParams,
  type TlsHandshakeEvidence,
  type TlsVerdict,
} from '../../main/wire/service-checks';
import { judgeHandshake } from '../../main/wire/tls-verdict';
import { getOverTls, httpCall, timeoutOf, type HttpAnswer } from './http-call';
import { CheckFailure, NOT_TLS, runBody, type CheckRun, type RunCheckOptions } from './outcome';
import { loadTls, nameFor, tlsOptions, type LoadedTls } from './tls-client';

export interface HandshakeTarget {
  host: string;
  port: number;
  starttls?: 'nats';
}

export interface HandshakeResult {
  verdict: TlsVerdict;
  /** OpenSSL's or Node's code of what went wrong, when something did. */
  code: string | null;
  message: string;
  evidence: TlsHandshakeEvidence;
}

/**
 * The longest a TLS 1.3 handshake is watched once complete: the server judges the client's certificate after it.
 * Go servers (etcd, NATS, the node exporter), as OpenSSL's, settle it sooner, with a session ticket (accepted)
 * or an alert (refused); only a server that sends no ticket is waited for this long.
 */
const AFTER_HANDSHAKE_MS = 300;
const MAX_GREETING_BYTES = 64 << 10;
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

const VERDICT_CODES: Record<Exclude<TlsVerdict, 'ok' | 'expiring'>, CheckErrorCode> = {
  expired: 'tls_expired',
  untrusted: 'tls_untrusted',
  name_mismatch: 'tls_name_mismatch',
  refused: 'tls_refused',
  unreachable: 'unreachable',
  not_tls: 'not_tls',
};

/** The check's error code for a failed verdict. */
export const verdictCode = (r: HandshakeResult): CheckErrorCode =>
  r.verdict === 'unreachable' && r.code === 'timeout' ? 'timeout' : VERDICT_CODES[r.verdict as keyof typeof VERDICT_CODES];

const passes = (v: TlsVerdict): boolean => v === 'ok' || v === 'expiring';

/**
 * Handshakes with target and judges what came back at `now`. The connection is made with verification deferred
 * (rejectUnauthorized false, as the manager's probe does) for one reason: to judge the certificate against the
 * check's clock and to report who presented an untrusted one. Nothing is sent over it: it is closed as soon as
 * it is judged, and the checks that then speak to the service open their own, verified, connections.
 */
export function handshake(target: HandshakeTarget, t: LoadedTls, timeoutMs: number, now: Date): Promise<HandshakeResult> {
  const label = hostPort(target);
  const serverName = nameFor(t, target.host);
  const evidence: TlsHandshakeEvidence = {
    target: targetLabel(target),
    server_name: serverName,
    protocol: null,
    cipher: null,
    certificate: null,
    client_certificate: t.cert !== undefined,
  };
  return new Promise((resolve) => {
    let phase: 'tcp' | 'greeting' | 'tls' | 'judged' = 'tcp';
    let socket: tls.TLSSocket | undefined;
    let judged: Omit<HandshakeResult, 'evidence'> | undefined;
    let settled = false;
    const done = (verdict: TlsVerdict, code: string | null, message: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket?.destroy();
      tcp.destroy();
      resolve({ verdict, code, message, evidence });
    };
    const timer = setTimeout(() => {
      if (phase === 'judged' && judged) return done(judged.verdict, judged.code, judged.message);
      const message =
        phase === 'tcp'
          ? `no TCP connection to ${label} within ${timeoutMs} ms`
          : phase === 'greeting'
            ? `${label} sent no NATS INFO within ${timeoutMs} ms; is it a NATS client port?`
            : `TCP connected but no TLS handshake within ${timeoutMs} ms; is ${label} a TLS port?`;
      done('unreachable', 'timeout', message);
    }, timeoutMs);

    const failed = (error: NodeJS.ErrnoException): void => {
      const code = error.code ?? 'unknown';
      // A server that refuses the client's certificate says so in an alert once a TLS 1.3 handshake is complete.
      if (phase === 'judged') return done('refused', code, `${label} refused the connection after the handshake: ${error.message}`);
      if (phase === 'tcp' && UNREACHABLE.has(code)) return done('unreachable', code, `${label} is unreachable: ${error.message}`);
      if (NOT_TLS.test(code) || NOT_TLS.test(error.message.toUpperCase().replace(/ /g, '_')))
        return done('not_tls', code, `${label} does not speak TLS (${error.message}): a plaintext endpoint`);
      if (code === 'ECONNRESET' || code === 'EPIPE')
        return done('refused', code, `${label} closed the connection during the TLS handshake (${error.message})`);
      if (code.startsWith('ERR_SSL_')) return done('refused', code, `${label} refused the TLS handshake: ${error.message}`);
      done(phase === 'tcp' ? 'unreachable' : 'refused', code, `${label}: ${error.message}`);
    };

    const upgrade = (): void => {
      phase = 'tls';
      socket = tls.connect({ ...tlsOptions(t, target.host), socket: tcp, rejectUnauthorized: false, checkServerIdentity: () => undefined });
      socket.on('error', failed);
      // A server sends its TLS 1.3 ticket once it has accepted the client's certificate, never when it refuses it:
      // the earliest sign the client was let in. Node reports tickets only to a 'session' listener, so it listens
      // before the handshake, and emits one only after 'secureConnect' (holding back one read with the handshake).
      socket.once('session', () => {
        if (phase !== 'judged' || !judged) return;
        evidence.settled_by = 'session_ticket';
        done(judged.verdict, judged.code, judged.message);
      });
      socket.once('close', () => {
        if (phase === 'judged' && judged) done(judged.verdict, judged.code, judged.message);
        else done('refused', 'ECONNRESET', `${label} closed the connection during the TLS handshake`);
      });
      socket.once('secureConnect', () => {
        const s = socket!;
        evidence.protocol = s.getProtocol();
        evidence.cipher = s.getCipher()?.name ?? null;
        try {
          judged = judge(s, t, serverName, now, evidence);
        } catch (error) {
          return done('untrusted', 'certificate_unreadable', `the certificate of ${label} could not be read: ${(error as Error).message}`);
        }
        if (!passes(judged.verdict) || evidence.protocol !== 'TLSv1.3') return done(judged.verdict, judged.code, judged.message);
        phase = 'judged';
        s.on('data', () => undefined);
        setTimeout(
          () => {
            evidence.settled_by = 'quiet_period';
            done(judged!.verdict, judged!.code, judged!.message);
          },
          Math.min(AFTER_HANDSHAKE_MS, timeoutMs),
        ).unref();
      });
    };

    const tcp = netConnect({ host: target.host, port: target.port });
    tcp.on('error', failed);
    tcp.once('connect', () => {
      if (!target.starttls) return upgrade();
      phase = 'greeting';
      let greeting = '';
      const onData = (chunk: Buffer): void => {
        greeting += chunk.toString('latin1');
        const end = greeting.indexOf('\r\n');
        if (end < 0 && greeting.length < MAX_GREETING_BYTES) return;
        tcp.off('data', onData);
        tcp.pause();
        const line = end < 0 ? greeting : greeting.slice(0, end);
        const info = readInfo(line);
        if (!info) return done('refused', 'not_nats', `${label} did not greet with a NATS INFO line: is it a NATS client port?`);
        const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
        evidence.nats = { server_id: str(info.server_id), version: str(info.version), tls_required: info.tls_required === true };
        if (info.tls_required !== true && info.tls_available !== true)
          return done(
            'not_tls',
            'tls_not_offered',
            `the NATS server at ${label} offers no TLS (its INFO has no tls_required): a plaintext endpoint`,
          );
        upgrade();
      };
      tcp.on('data', onData);
    });
  });
}

const hostPort = (target: HandshakeTarget): string => `${isIP(target.host) === 6 ? `[${target.host}]` : target.host}:${target.port}`;

/** How a target is named in the evidence. */
export const targetLabel = (target: HandshakeTarget): string =>
  target.starttls ? `${hostPort(target)} (NATS: TLS after the INFO in clear)` : hostPort(target);

function readInfo(line: string): Record<string, unknown> | null {
  const m = /^INFO\s+(\{.*\})\s*$/.exec(line);
  if (!m) return null;
  try {
    const info: unknown = JSON.parse(m[1]!);
    return info && typeof info === 'object' && !Array.isArray(info) ? (info as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The shared judge's verdict, its certificate kept as evidence. */
function judge(
  socket: tls.TLSSocket,
  t: LoadedTls,
  serverName: string,
  now: Date,
  evidence: TlsHandshakeEvidence,
): Omit<HandshakeResult, 'evidence'> {
  const { certificate, ...verdict } = judgeHandshake(socket, {
    caPems: [t.ca],
    serverName,
    now,
    warnDays: TLS_WARN_DAYS,
    anchorsLabel: `the CA in ${t.files.ca_file}`,
  });
  evidence.certificate = certificate;
  return verdict;
}

/**
 * The first step of a service check over TLS: a handshake with each target, its evidence in evidence.tls (one
 * entry per endpoint). A certificate judged bad, a refusal or a plaintext endpoint fails the check with the
 * verdict's code; an endpoint that cannot be reached is left to the check itself, which reports it as it always has.
 */
export async function tlsGate(run: CheckRun, t: LoadedTls, targets: HandshakeTarget[], timeoutMs: number, now: Date): Promise<void> {
  const list = (run.evidence.tls ??= []) as TlsHandshakeEvidence[];
  // A check that calls one endpoint twice (two monitoring URLs) handshakes with it once.
  const fresh = targets.filter((target) => !list.some((e) => e.target === targetLabel(target)));
  const results = await Promise.all(fresh.map((target) => handshake(target, t, timeoutMs, now)));
  list.push(...results.map((r) => r.evidence));
  const bad = results.find((r) => !passes(r.verdict) && r.verdict !== 'unreachable');
  if (bad) throw new CheckFailure(verdictCode(bad), `${bad.evidence.target}: ${bad.message}`);
  const expiring = results.find((r) => r.verdict === 'expiring');
  if (expiring) run.warn('tls_expiring', `${expiring.evidence.target}: ${expiring.message}`);
}

/**
 * A GET of a service's URL: in plaintext without a tls block; with one, the handshake judged first (tlsGate), then
 * the request over a connection verified against the block's CA, with its client certificate.
 */
export async function checkGet(run: CheckRun, url: string, t: LoadedTls | undefined, timeoutMs: number, now: Date): Promise<HttpAnswer> {
  if (!t) return httpCall('GET', url, timeoutMs);
  const [target] = urlTargets([url]);
  await tlsGate(run, t, [target!], timeoutMs, now);
  return getOverTls(url, timeoutMs, tlsOptions(t, target!.host));
}

/** The check's clock, once: the time the certificates are judged at. */
export const clockOf = (options: RunCheckOptions): Date => (options.now ?? (() => new Date()))();

/** The targets of URLs (https://, nats://, tls://), their default ports filled in. */
export function urlTargets(urls: string[], starttls?: 'nats'): HandshakeTarget[] {
  return urls.map((url) => {
    const u = new URL(url);
    const port = u.port ? Number(u.port) : (({ 'https:': 443, 'http:': 80 } as Record<string, number>)[u.protocol] ?? 4222);
    return { host: u.hostname.replace(/^\[(.*)\]$/, '$1'), port, ...(starttls ? { starttls } : {}) };
  });
}

export function tlsHandshakeCheck(p: CheckParams<'tls.handshake'>, options: RunCheckOptions): Promise<CheckOutcome> {
  const timeout = timeoutOf(p);
  const now = clockOf(options);
  const target = { host: p.host, port: p.port, ...(p.starttls ? { starttls: p.starttls } : {}) };
  const method =
    `TLS handshake with ${p.host}:${p.port}${p.starttls ? ' after reading the NATS INFO sent in clear' : ''}, the certificate ` +
    `verified against ${p.ca_file} only, for ${p.server_name ?? p.host}${p.cert_file ? `, presenting ${p.cert_file}` : ''}, judged at ` +
    `${now.toISOString()}: untrusted, expired, another name, refused or plaintext fail; under ${TLS_WARN_DAYS} days to expiry warns`;
  return runBody('tls.handshake', method, options, async (run) => {
    const files = {
      ca_file: p.ca_file,
      ...(p.cert_file ? { cert_file: p.cert_file } : {}),
      ...(p.key_file ? { key_file: p.key_file } : {}),
      ...(p.server_name ? { server_name: p.server_name } : {}),
    };
    const t = await loadTls(files);
    const r = await handshake(target, t, timeout, now);
    run.evidence.verdict = r.verdict;
    if (r.code) run.evidence.error_code = r.code;
    run.evidence.tls = [r.evidence];
    if (!passes(r.verdict)) throw new CheckFailure(verdictCode(r), r.message);
    if (r.verdict === 'expiring') run.warn('tls_expiring', r.message);
    run.evidence.message = r.message;
  });
}
