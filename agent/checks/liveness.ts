// Liveness of one instance: a TCP connect, an HTTP status, etcd's /health and NATS's /healthz. Each says what
// it asked and what came back; a refused or silent port is an outcome, never a throw.
import { connect } from 'node:net';
import type { CheckOutcome, CheckParams } from '../../main/wire/service-checks';
import { expectStatus, hostUrl, shortBody, timeoutOf } from './http-call';
import { CheckFailure, runBody, type RunCheckOptions } from './outcome';
import { loadTls, trustWords } from './tls-client';
import { checkGet, clockOf } from './tls-handshake';

export function tcpCheck(p: CheckParams<'tcp'>, options: RunCheckOptions): Promise<CheckOutcome> {
  const host = p.host ?? '127.0.0.1';
  const timeout = timeoutOf(p);
  return runBody('tcp', `TCP connect to ${host}:${p.port} within ${timeout} ms`, options, async (run) => {
    run.evidence.address = `${host}:${p.port}`;
    const t0 = performance.now();
    await new Promise<void>((resolve, reject) => {
      const socket = connect({ host, port: p.port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(Object.assign(new Error(`no TCP answer from ${host}:${p.port} within ${timeout} ms`), { name: 'TimeoutError' }));
      }, timeout);
      socket.once('connect', () => {
        clearTimeout(timer);
        run.evidence.local_address = `${socket.localAddress}:${socket.localPort}`;
        socket.end();
        resolve();
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        socket.destroy();
        reject(error);
      });
    });
    run.evidence.connect_ms = Math.round(performance.now() - t0);
  });
}

/** The tls block a check was given; the older ca_file of http is the same block without a client certificate. */
const tlsOf = (p: { tls?: CheckParams<'http'>['tls']; ca_file?: string }) => p.tls ?? (p.ca_file ? { ca_file: p.ca_file } : undefined);

export function httpCheck(p: CheckParams<'http'>, options: RunCheckOptions, kind = 'http'): Promise<CheckOutcome> {
  const url = hostUrl(p.scheme ?? 'http', p.host, p.port, p.path);
  const want = p.expect_status ?? 200;
  const files = tlsOf(p);
  const trust =
    p.scheme === 'https'
      ? files
        ? `, the certificate verified against ${files.ca_file}${files.cert_file ? `, presenting ${files.cert_file}` : ''}`
        : ', the certificate verified against the system CAs'
      : '';
  return runBody(kind, `HTTP GET ${url}, expecting status ${want}${trust}`, options, async (run) => {
    run.evidence.url = url;
    const t = files ? await loadTls(files) : undefined;
    const answer = await checkGet(run, url, t, timeoutOf(p), clockOf(options));
    run.evidence.status = answer.status;
    run.evidence.body = shortBody(answer.text);
    expectStatus(answer, want, url);
  });
}

export function etcdHealthCheck(p: CheckParams<'etcd.health'>, options: RunCheckOptions): Promise<CheckOutcome> {
  const url = hostUrl(p.tls ? 'https' : 'http', p.host, p.port, '/health');
  const method =
    `HTTP GET ${url} (the member's own health: a leader, no alarm, a quorum read), expecting {"health":"true"}` +
    (p.tls ? `; first a TLS handshake judged, then the request${trustWords(p.tls)}` : '');
  return runBody('etcd.health', method, options, async (run) => {
    run.evidence.url = url;
    const t = p.tls ? await loadTls(p.tls) : undefined;
    const answer = await checkGet(run, url, t, timeoutOf(p), clockOf(options));
    run.evidence.status = answer.status;
    run.evidence.body = shortBody(answer.text);
    const health = (answer.json as { health?: unknown; reason?: unknown } | undefined)?.health;
    if (health === 'false' || health === false)
      throw new CheckFailure('unhealthy', `the member reports itself unhealthy: ${shortBody(answer.text)}`);
    expectStatus(answer, 200, url);
    if (health !== 'true' && health !== true) throw new CheckFailure('unexpected_response', `no health field in ${shortBody(answer.text)}`);
  });
}

export function natsHealthzCheck(p: CheckParams<'nats.healthz'>, options: RunCheckOptions): Promise<CheckOutcome> {
  const url = hostUrl(p.tls ? 'https' : 'http', p.host, p.monitor_port, '/healthz');
  const method =
    `HTTP GET ${url} on the monitoring port, expecting {"status":"ok"}` +
    (p.tls ? `; first a TLS handshake judged, then the request${trustWords(p.tls)}` : '');
  return runBody('nats.healthz', method, options, async (run) => {
    run.evidence.url = url;
    const t = p.tls ? await loadTls(p.tls) : undefined;
    const answer = await checkGet(run, url, t, timeoutOf(p), clockOf(options));
    run.evidence.status = answer.status;
    run.evidence.body = shortBody(answer.text);
    const status = (answer.json as { status?: unknown } | undefined)?.status;
    if (answer.status === 503 || (typeof status === 'string' && status !== 'ok'))
      throw new CheckFailure('unhealthy', `the server reports itself unhealthy: ${shortBody(answer.text)}`);
    expectStatus(answer, 200, url);
    if (status !== 'ok') throw new CheckFailure('unexpected_response', `no status "ok" in ${shortBody(answer.text)}`);
  });
}
