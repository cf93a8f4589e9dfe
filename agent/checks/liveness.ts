// Liveness of one instance: a TCP connect, an HTTP status, etcd's /health and NATS's /healthz. Each says what
// it asked and what came back; a refused or silent port is an outcome, never a throw.
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import type { CheckOutcome, CheckParams } from '../../main/wire/service-checks';
import { expectStatus, getWithCa, hostUrl, httpCall, shortBody, timeoutOf } from './http-call';
import { CheckFailure, errorMessage, runBody, type RunCheckOptions } from './outcome';

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

export function httpCheck(p: CheckParams<'http'>, options: RunCheckOptions, kind = 'http'): Promise<CheckOutcome> {
  const url = hostUrl(p.scheme ?? 'http', p.host, p.port, p.path);
  const want = p.expect_status ?? 200;
  const trust =
    p.scheme === 'https'
      ? p.ca_file
        ? `, the certificate verified against ${p.ca_file}`
        : ', the certificate verified against the system CAs'
      : '';
  return runBody(kind, `HTTP GET ${url}, expecting status ${want}${trust}`, options, async (run) => {
    run.evidence.url = url;
    let ca: string | undefined;
    if (p.ca_file) {
      try {
        ca = await readFile(p.ca_file, 'utf8');
      } catch (error) {
        throw new CheckFailure('params_invalid', `cannot read ca_file ${p.ca_file}: ${errorMessage(error)}`);
      }
    }
    const answer = ca ? await getWithCa(url, timeoutOf(p), ca) : await httpCall('GET', url, timeoutOf(p));
    run.evidence.status = answer.status;
    run.evidence.body = shortBody(answer.text);
    expectStatus(answer, want, url);
  });
}

export function etcdHealthCheck(p: CheckParams<'etcd.health'>, options: RunCheckOptions): Promise<CheckOutcome> {
  const url = hostUrl('http', p.host, p.port, '/health');
  const method = `HTTP GET ${url} (the member's own health: a leader, no alarm, a quorum read), expecting {"health":"true"}`;
  return runBody('etcd.health', method, options, async (run) => {
    run.evidence.url = url;
    const answer = await httpCall('GET', url, timeoutOf(p));
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
  const url = hostUrl('http', p.host, p.monitor_port, '/healthz');
  return runBody('nats.healthz', `HTTP GET ${url} on the monitoring port, expecting {"status":"ok"}`, options, async (run) => {
    run.evidence.url = url;
    const answer = await httpCall('GET', url, timeoutOf(p));
    run.evidence.status = answer.status;
    run.evidence.body = shortBody(answer.text);
    const status = (answer.json as { status?: unknown } | undefined)?.status;
    if (answer.status === 503 || (typeof status === 'string' && status !== 'ok'))
      throw new CheckFailure('unhealthy', `the server reports itself unhealthy: ${shortBody(answer.text)}`);
    expectStatus(answer, 200, url);
    if (status !== 'ok') throw new CheckFailure('unexpected_response', `no status "ok" in ${shortBody(answer.text)}`);
  });
}
