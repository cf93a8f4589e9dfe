// One HTTPS request with the body given as raw bytes or text (so tests can send what a JSON encoder never
// would: lone surrogates, invalid UTF-8, deep nesting), answered as status, headers and text.
import { request, type Agent } from 'node:https';

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

export interface RawRequest {
  method?: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
  ca?: string;
  cert?: string;
  key?: string;
  servername?: string;
  /** Send from this loopback address (127.0.0.2 …) to appear as another source. */
  localAddress?: string;
  agent?: Agent | false;
}

export function httpsCall(url: string, path: string, opts: RawRequest = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const u = new URL(path, url);
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
        ca: opts.ca,
        cert: opts.cert,
        key: opts.key,
        servername: opts.servername,
        localAddress: opts.localAddress,
        agent: opts.agent ?? false,
        // Framed explicitly: Node's client sends the body of a DELETE without a length, which a server reads as
        // the next request.
        headers: {
          'Content-Type': 'application/json',
          ...(opts.body !== undefined ? { 'Content-Length': String(Buffer.byteLength(opts.body)) } : {}),
          ...opts.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown = undefined;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** A JSON string literal holding one lone high surrogate, written as the escape a hostile client would send. */
export const LONE = '\\ud800';
