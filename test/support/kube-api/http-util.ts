// Small HTTP helpers: read a request body, answer JSON, answer a Status error.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StatusError } from './status.js';
import * as errors from './status.js';

const MAX_BODY = 3 * 1024 * 1024;

export const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY)
        reject(new StatusError({ ...errors.badRequest('request entity too large').status, code: 413, reason: 'RequestEntityTooLarge' }));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

export const sendJson = (res: ServerResponse, code: number, body: unknown, headers: Record<string, string> = {}): void => {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(code, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
};

export const sendText = (res: ServerResponse, code: number, text: string): void => {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(code, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
};

export const sendError = (res: ServerResponse, err: unknown): number => {
  const e = err instanceof StatusError ? err : errors.injected(500);
  if (!(err instanceof StatusError)) {
    e.status.message = `Internal error occurred: ${(err as Error)?.message ?? String(err)}`;
  }
  sendJson(res, e.status.code, e.status, e.headers);
  return e.status.code;
};

/** Parses a JSON (or YAML) request body into an object, as the decoder does, or 400. */
export const decodeBody = (text: string, contentType: string, parseYaml: (t: string) => unknown): unknown => {
  try {
    return contentType.includes('yaml') ? parseYaml(text) : JSON.parse(text);
  } catch (e) {
    throw errors.badRequest(`couldn't get version/kind; json parse error: ${(e as Error).message}`);
  }
};
