// One HTTP request of a check, bounded by its timeout, with what evidence needs of the answer: the status, the
// body as text (cut short) and as JSON when it is JSON.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ConnectionOptions } from 'node:tls';
import { DEFAULT_CHECK_TIMEOUT_MS } from '../../main/wire/service-checks';
import { CheckFailure } from './outcome';

export const EVIDENCE_BODY_CHARS = 512;

/**
 * The most of an answer a check reads (a node exporter's metrics are a few hundred KiB): a service answering
 * without end filled the agent's memory. Past it the check fails unexpected_response.
 */
export const MAX_CHECK_ANSWER_BYTES = 8 << 20;

const tooLarge = (url: string): CheckFailure =>
  new CheckFailure('unexpected_response', `${url} answered more than ${MAX_CHECK_ANSWER_BYTES >> 20} MiB; the check reads no more`);

/** A fetch answer's body as text, refused past `max` bytes (announced or read) without reading the rest. */
async function cappedText(res: Response, url: string, max: number): Promise<string> {
  const announced = Number(res.headers.get('content-length') ?? NaN);
  if (announced > max || !res.body) {
    await res.body?.cancel();
    if (announced > max) throw tooLarge(url);
    return '';
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw tooLarge(url);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface HttpAnswer {
  status: number;
  contentType: string;
  text: string;
  json: unknown;
}

export function timeoutOf(params: { timeout_ms?: number }): number {
  return params.timeout_ms ?? DEFAULT_CHECK_TIMEOUT_MS;
}

export async function httpCall(
  method: string,
  url: string,
  timeoutMs: number,
  body?: { json: unknown } | { text: string; contentType: string },
): Promise<HttpAnswer> {
  const init: RequestInit = { method, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' };
  if (body && 'json' in body) {
    init.body = JSON.stringify(body.json);
    init.headers = { 'content-type': 'application/json' };
  } else if (body) {
    init.body = body.text;
    init.headers = { 'content-type': body.contentType };
  }
  const res = await fetch(url, init);
  const text = await cappedText(res, url, MAX_CHECK_ANSWER_BYTES);
  let json: unknown;
  try {
    json = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, json };
}

/** A GET of an https server verified against a given CA (see getOverTls). */
export function getWithCa(url: string, timeoutMs: number, ca?: string): Promise<HttpAnswer> {
  return getOverTls(url, timeoutMs, ca ? { ca } : undefined);
}

/**
 * A GET through node:http(s), for what fetch cannot serve: an https server verified against a given CA, with a
 * client certificate when the server wants one (tls-client.ts makes the options). The whole exchange (connect,
 * TLS, answer) is bounded by timeoutMs.
 */
export function getOverTls(url: string, timeoutMs: number, tls?: ConnectionOptions): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(u, { method: 'GET', ...(tls ?? {}) }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_CHECK_ANSWER_BYTES) return void req.destroy(tooLarge(url));
        chunks.push(c);
      });
      res.on('error', reject);
      res.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text.length > 0 ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text, json });
      });
    });
    const timer = setTimeout(() => {
      req.destroy(Object.assign(new Error(`no answer from ${url} within ${timeoutMs} ms`), { name: 'TimeoutError' }));
    }, timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end();
  });
}

export function shortBody(text: string): string {
  return text.length > EVIDENCE_BODY_CHARS ? `${text.slice(0, EVIDENCE_BODY_CHARS)}…` : text;
}

/** A failure, with the body as evidence, when the service answered another status than the one expected. */
export function expectStatus(answer: HttpAnswer, want: number, what: string): void {
  if (answer.status !== want) {
    throw new CheckFailure('http_status', `${what} answered HTTP ${answer.status}, expected ${want}: ${shortBody(answer.text)}`);
  }
}

export function hostUrl(scheme: string, host: string | undefined, port: number, path: string): string {
  const h = host ?? '127.0.0.1';
  return `${scheme}://${h.includes(':') && !h.startsWith('[') ? `[${h}]` : h}:${port}${path}`;
}

/** A base URL and a path joined without doubling or dropping the slash between them. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}
