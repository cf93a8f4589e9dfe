// The HTTPS transport of headless mode: the console API under /api/v1 (cookie session + CSRF, or a Bearer
// API token), the live event stream, and the built console itself, all on one loopback TLS listener.
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Manager } from '../core/manager';
import type { Method, Router } from '../core/http/router';
import { errorBody, ApiError } from '../core/http/api-error';
import { clearedSessionCookie, readCookie, sessionCookie, SESSION_COOKIE } from './cookies';
import { staticFile } from './static-files';
import { BodyTooLarge, readBody, replyThenClose } from '../core/http/read-body';
import { InvalidJsonError, parseJsonBody } from '../core/http/json-body';
import { applyConnectionTimeouts } from '../core/http/connection-timeouts';
import type { RateLimit } from '../core/http/rate-limit';
import type { TlsMaterial } from '../core/keys/server-tls';
import { credentialRoute, nameHint } from '../core/accounts/credential-routes';
import { CredentialThrottle } from './credential-throttle';

export const MAX_BODY = 1 << 20;
const METHODS = new Set(['GET', 'POST', 'PATCH', 'PUT', 'DELETE']);

const SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Strict-Transport-Security': 'max-age=31536000',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

export interface HeadlessServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export interface HeadlessOptions {
  manager: Manager;
  router: Router;
  /**
   * The console's certificate of the CA that issues now: read at start and again whenever the CA changes (a CA
   * rotation), so clients that trust the manager's current CA can still verify the console.
   */
  tls: () => TlsMaterial;
  host: string;
  port: number;
  rendererDir: string;
  /** The per-source limit of the credential routes (login, second factor, login link, setup). */
  credentialRateLimit?: RateLimit;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = {}): void {
  const payload = body === null || status === 204 ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Cache-Control': 'no-store',
    ...(payload ? { 'Content-Type': 'application/json; charset=utf-8' } : {}),
    ...headers,
  });
  res.end(payload);
}

/** An error answer, with the status of its code (contract/error-codes.ts). */
const fail = (res: ServerResponse, e: ApiError): void => send(res, e.status, errorBody(e));

function bearer(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  return h?.startsWith('Bearer ') ? h.slice(7).trim() : undefined;
}

export function startHeadlessServer(opts: HeadlessOptions): Promise<HeadlessServer> {
  const { manager, router } = opts;
  const streams = new Set<ServerResponse>();
  const throttle = new CredentialThrottle(opts.credentialRateLimit);

  const first = opts.tls();
  const server = createServer({ key: first.keyPem, cert: first.certPem, minVersion: 'TLSv1.2' }, (req, res) => {
    void handle(req, res).catch((error) => {
      const e = error instanceof ApiError ? error : new ApiError('internal', 'internal error');
      if (!res.headersSent) fail(res, e);
      else res.destroy();
    });
  });
  applyConnectionTimeouts(server);
  // Open connections keep their context; new ones get the certificate of the CA in force.
  const offCa = manager.ca.onChange(() => {
    const now = opts.tls();
    server.setSecureContext({ key: now.keyPem, cert: now.certPem, minVersion: 'TLSv1.2' });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://localhost');
    const method = (req.method ?? 'GET').toUpperCase();
    if (url.pathname === '/api/v1/events' && method === 'GET') return events(req, res);
    if (url.pathname.startsWith('/api/')) {
      if (!METHODS.has(method)) return fail(res, new ApiError('method_not_allowed', `${method} is not supported`));
      const credential = credentialRoute(method, url.pathname);
      let raw: Buffer = Buffer.alloc(0);
      let tooLarge: BodyTooLarge | undefined;
      try {
        raw = await readBody(req, MAX_BODY);
      } catch (error) {
        if (!(error instanceof BodyTooLarge)) throw error;
        tooLarge = error;
      }
      // Past the body limit the answer is written first and the connection closed once the rest was read.
      const answer = (e: ApiError, headers: Record<string, string> = {}): void =>
        tooLarge
          ? replyThenClose(res, e.status, errorBody(e), tooLarge.drained, { ...SECURITY_HEADERS, ...headers })
          : send(res, e.status, errorBody(e), headers);
      if (credential) {
        const decision = throttle.take(req.socket.remoteAddress);
        if (!decision.ok) {
          // One audit row per run of refusals, not one per request: a flood must not flood the audit log too.
          if (decision.first) manager.accounts.rateLimited(credential, decision.source);
          const e = new ApiError('rate_limited', `too many sign-in attempts from ${decision.source}; retry in ${decision.retryAfterS} s`);
          return answer(e, { 'Retry-After': String(decision.retryAfterS) });
        }
      }
      if (tooLarge) {
        if (credential) manager.accounts.refusedCredential(credential, undefined, 'body_too_large');
        return answer(new ApiError(tooLarge.code, tooLarge.message, undefined, tooLarge.details));
      }
      let body: unknown = undefined;
      if (raw.length > 0) {
        try {
          body = parseJsonBody(raw);
        } catch (error) {
          if (!(error instanceof InvalidJsonError)) throw error;
          if (credential) manager.accounts.refusedCredential(credential, nameHint(raw), 'invalid_json');
          return fail(res, new ApiError(error.code, error.message, undefined, error.details));
        }
      }
      const result = await router.handle(manager, {
        method: method as Method,
        path: url.pathname,
        query: url.searchParams,
        body,
        credentials: { session: readCookie(req.headers.cookie, SESSION_COOKIE), csrf: header(req, 'x-csrf-token'), bearer: bearer(req) },
      });
      const headers: Record<string, string> = {};
      const retryAfter = (result.body as { error?: { details?: { retry_after_s?: unknown } } } | null)?.error?.details?.retry_after_s;
      if (result.status === 429 && typeof retryAfter === 'number') headers['Retry-After'] = String(retryAfter);
      if (result.session) headers['Set-Cookie'] = sessionCookie(result.session.token, result.session.expires_at);
      if (result.session === null) headers['Set-Cookie'] = clearedSessionCookie;
      if (typeof result.body === 'string') {
        res.writeHead(result.status, {
          ...SECURITY_HEADERS,
          'Cache-Control': 'no-store',
          'Content-Type': result.contentType ?? 'text/plain; charset=utf-8',
          ...headers,
        });
        res.end(result.body);
        return;
      }
      return send(res, result.status, result.body, headers);
    }
    if (method !== 'GET' && method !== 'HEAD') return fail(res, new ApiError('method_not_allowed', `${method} is not allowed here`));
    const file = staticFile(opts.rendererDir, url.pathname);
    if (!file) return fail(res, new ApiError('not_found', `${url.pathname} not found`));
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': file.type,
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'Cache-Control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    res.end(method === 'HEAD' ? undefined : file.body);
  }

  function events(req: IncomingMessage, res: ServerResponse): void {
    const token = readCookie(req.headers.cookie, SESSION_COOKIE);
    const b = bearer(req);
    const who = () => {
      try {
        return b ? manager.accounts.apiTokenUser(b) : token ? manager.accounts.session(token)?.user : undefined;
      } catch {
        return undefined; // an expired or revoked token
      }
    };
    const user = who();
    if (!user) return fail(res, new ApiError('unauthenticated', 'log in first'));
    // An account that still has to enrol its second factor sees nothing else, the event stream included.
    if (manager.accounts.mfaPending(user.id))
      return fail(res, new ApiError('mfa_enrollment_required', 'enrol a second factor (TOTP) first'));
    res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
    res.write(': connected\n\n');
    streams.add(res);
    // The credential is judged again before every event: a stream outlives neither a logout, an expired
    // session nor a role that has come to require a second factor.
    const stillAllowed = (): boolean => {
      const u = who();
      return !!u && !manager.accounts.mfaPending(u.id);
    };
    const unsubscribe = manager.events.subscribe((e) => {
      if (stillAllowed()) res.write(`data: ${JSON.stringify(e)}\n\n`);
      else res.end();
    });
    const ping = setInterval(() => (stillAllowed() ? res.write(': ping\n\n') : res.end()), 25_000);
    res.on('close', () => {
      clearInterval(ping);
      unsubscribe();
      streams.delete(res);
    });
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
      resolve({
        server,
        url: `https://${host}:${port}/`,
        close: () =>
          new Promise<void>((done) => {
            offCa();
            for (const s of streams) s.end();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
