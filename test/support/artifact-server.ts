// An HTTPS server of blobs by digest, as an OCI registry serves them (GET /v2/<repo>/blobs/sha256:<hex>), with a
// certificate from the test CA. It counts requests, and can hold answers until released (to kill an agent
// while it fetches).
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { issueServerCert, testCas } from './tls-endpoints';

export interface ArtifactServer {
  url: string;
  caPem: string;
  /** Serves these bytes at /v2/<repo>/blobs/<digest>; returns the digest and the URL. */
  add(repo: string, body: Buffer): { digest: string; url: string };
  requests(path?: string): number;
  /** From now on, answers wait until release() (the request is counted when it arrives). */
  hold(): void;
  release(): void;
  /** Resolves once a request for path has arrived. */
  arrived(path: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startArtifactServer(host = '127.0.0.1'): Promise<ArtifactServer> {
  const { trusted } = testCas();
  const leaf = issueServerCert(trusted, [host], new Date(Date.now() - 86_400_000), new Date(Date.now() + 30 * 86_400_000));
  const blobs = new Map<string, Buffer>();
  const counts = new Map<string, number>();
  const arrivals = new Map<string, (() => void)[]>();
  let held: (() => void)[] | null = null;
  const sockets = new Set<{ destroy(): void; on(e: 'close', f: () => void): unknown }>();
  const server: Server = createServer({ cert: leaf.certPem, key: leaf.keyPem, minVersion: 'TLSv1.2' }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    for (const w of arrivals.get(path) ?? []) w();
    arrivals.delete(path);
    const answer = (): void => {
      const body = blobs.get(path);
      if (!body) {
        res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"errors":[{"code":"BLOB_UNKNOWN"}]}');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': body.length }).end(body);
    };
    if (held) held.push(answer);
    else answer();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const base = `https://${host}:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    caPem: trusted.certPem,
    add(repo, body) {
      const digest = `sha256:${createHash('sha256').update(body).digest('hex')}`;
      const path = `/v2/${repo}/blobs/${digest}`;
      blobs.set(path, body);
      return { digest, url: `${base}${path}` };
    },
    requests: (path) => (path ? (counts.get(path) ?? 0) : [...counts.values()].reduce((a, b) => a + b, 0)),
    hold() {
      held ??= [];
    },
    release() {
      const waiting = held ?? [];
      held = null;
      for (const a of waiting) a();
    },
    arrived(path) {
      if ((counts.get(path) ?? 0) > 0) return Promise.resolve();
      return new Promise((resolve) => arrivals.set(path, [...(arrivals.get(path) ?? []), resolve]));
    },
    stop: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
