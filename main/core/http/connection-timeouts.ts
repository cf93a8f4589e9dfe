// Connection timeouts of the console listener and the agent gateway. Node closes an idle keep-alive connection
// after 5 s by default, and a client that sends its next request at that moment (more likely on a loaded
// machine, or between two batches of requests) gets ECONNRESET: keep idle connections far longer than any pause
// within a working session, and bound how long a request may take to arrive.
import type { Server } from 'node:https';

export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** Longer than the keep-alive timeout, so that the headers timer never cuts a kept connection first. */
export const HEADERS_TIMEOUT_MS = 70_000;
/** A whole request (headers and body) must arrive within this. */
export const REQUEST_TIMEOUT_MS = 120_000;

export function applyConnectionTimeouts(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
}
