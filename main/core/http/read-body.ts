// Reads a request body up to a limit, for the console listener and the agent gateway alike. Past the limit the
// rest is read and dropped while the 413 is written, and only then is the connection closed: closing with unread
// data would reset it, and the client would lose the answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CoreError } from '../errors';

/** How much of an oversized body is read and dropped, and for how long, before the connection is cut anyway. */
const DRAIN_MAX_BYTES = 64 << 20;
const DRAIN_MAX_MS = 10_000;

export class BodyTooLarge extends CoreError {
  constructor(
    readonly limit: number,
    /** Settles once the rest of the body was read (or given up on); close the connection after it. */
    readonly drained: Promise<void>,
  ) {
    super('body_too_large', `a request body is at most ${limit} bytes`, { limit });
    this.name = 'BodyTooLarge';
  }
}

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    const overflow = (): void => {
      over = true;
      chunks.length = 0;
      reject(new BodyTooLarge(limit, drain(req)));
    };
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return overflow();
    req.on('data', (c: Buffer) => {
      if (over) return;
      size += c.length;
      if (size > limit) overflow();
      else chunks.push(c);
    });
    req.on('end', () => {
      if (!over) resolve(Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!over) reject(e);
    });
  });
}

/** Reads and drops the rest of a request; gives up (and cuts the connection) past the drain limits. */
function drain(req: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    if (req.complete) return resolve();
    let dropped = 0;
    const done = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const giveUp = (): void => {
      req.socket.destroy();
      done();
    };
    const timer = setTimeout(giveUp, DRAIN_MAX_MS);
    req.on('data', (c: Buffer) => {
      dropped += c.length;
      if (dropped > DRAIN_MAX_BYTES) giveUp();
    });
    req.on('end', done);
    req.on('close', done);
    req.on('error', done);
    req.resume();
  });
}

/**
 * Writes a whole JSON answer at once (the client can read it while still sending), then ends it and closes the
 * connection after `drained`.
 */
export function replyThenClose(
  res: ServerResponse,
  status: number,
  body: unknown,
  drained: Promise<void>,
  headers: Record<string, string> = {},
): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': String(Buffer.byteLength(payload)),
    Connection: 'close',
  });
  res.write(payload);
  void drained.then(() => res.end());
}
