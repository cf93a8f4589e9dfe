// NATS readiness (JetStream enabled and answering, on the monitoring port and over the client protocol) and
// the functional test (subscribe, publish, delivery on a fresh subject; with jetstream, a file-backed stream
// written and read back), with the NATS client @nats-io/transport-node and its JetStream package.
import { connect, type NatsConnection, type TlsOptions } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { CheckOutcome, CheckParams } from '../../main/wire/service-checks';
import { toHex } from '../../main/wire/encoding';
import { randomBytes } from '../../main/wire/random';
import { hostUrl, shortBody, timeoutOf } from './http-call';
import { CheckFailure, errorMessage, runBody, within, type RunCheckOptions } from './outcome';
import { loadTls, tlsOptions, trustWords, type LoadedTls } from './tls-client';
import { checkGet, clockOf, tlsGate, urlTargets } from './tls-handshake';

/** Subjects of the functional test: one fresh subject per run under this prefix. */
export const NATS_SMOKE_PREFIX = 'navin.smoke.';
/** Streams of the functional test: one fresh stream per run with this name prefix. */
export const NATS_SMOKE_STREAM_PREFIX = 'NAVIN_SMOKE_';

async function natsConnect(servers: string[], timeoutMs: number, t: LoadedTls | undefined): Promise<NatsConnection> {
  // A check connects once: no reconnect loop that would outlive it or hide a server that went away. With TLS the
  // client reads the server's INFO in clear and upgrades the same socket (nats-server 2.9 does not take a TLS
  // handshake first); the options reach node:tls as they are, so the server is verified as every check's is.
  const dial = (list: string[], tls?: TlsOptions): Promise<NatsConnection> =>
    connect({ servers: list, timeout: timeoutMs, reconnect: false, name: 'navin-check', maxPingOut: 2, ...(tls ? { tls } : {}) });
  if (!t) return dial(servers);
  // nats.js upgrades a server given by its IP address with no name at all (node:tls then checks "localhost"):
  // each server is dialled on its own, its certificate checked for the address dialled, the next tried on failure.
  let failure: unknown;
  for (const server of servers)
    try {
      return await dial([server], tlsOptions(t, new URL(server.includes('://') ? server : `nats://${server}`).hostname) as TlsOptions);
    } catch (error) {
      failure = error;
    }
  throw failure;
}

function jsError(error: unknown): never {
  const name = (error as { name?: unknown })?.name;
  if (name === 'JetStreamNotEnabled' || /jetstream not enabled/i.test(errorMessage(error))) {
    throw new CheckFailure('jetstream_disabled', errorMessage(error));
  }
  throw error;
}

export function natsJetstreamCheck(p: CheckParams<'nats.jetstream'>, options: RunCheckOptions): Promise<CheckOutcome> {
  const timeout = timeoutOf(p);
  const scheme = p.tls ? 'https' : 'http';
  const healthz = hostUrl(scheme, p.host, p.monitor_port, '/healthz');
  const jsz = hostUrl(scheme, p.host, p.monitor_port, '/jsz');
  const server = hostUrl('nats', p.host, p.client_port, '');
  // nats-server 2.9 answers /healthz?js-enabled-only=true with ok even when JetStream is off, so the
  // monitoring side is read from /jsz ("disabled"), and the client side from the JetStream API itself.
  const method =
    `GET ${healthz} (server and JetStream assets healthy), GET ${jsz} (JetStream not disabled, a store configured), ` +
    `then JetStream account info over ${server}` +
    (p.tls ? `; each port's TLS handshake judged first (the client port's after its INFO in clear)${trustWords(p.tls)}` : '');
  return runBody('nats.jetstream', method, options, async (run) => {
    const now = clockOf(options);
    const t = p.tls ? await loadTls(p.tls) : undefined;
    const h = await checkGet(run, healthz, t, timeout, now);
    run.evidence.healthz = { status: h.status, body: shortBody(h.text) };
    if (h.status !== 200 || (h.json as { status?: unknown } | undefined)?.status !== 'ok') {
      throw new CheckFailure('unhealthy', `${healthz} answered HTTP ${h.status}: ${shortBody(h.text)}`);
    }
    const j = await checkGet(run, jsz, t, timeout, now);
    const info = j.json as
      { disabled?: boolean; config?: Record<string, unknown>; streams?: number; storage?: number; memory?: number } | undefined;
    if (j.status !== 200 || !info) throw new CheckFailure('unexpected_response', `${jsz} answered HTTP ${j.status}: ${shortBody(j.text)}`);
    run.evidence.jsz = {
      disabled: info.disabled ?? false,
      config: info.config,
      streams: info.streams,
      storage: info.storage,
      memory: info.memory,
    };
    if (info.disabled) throw new CheckFailure('jetstream_disabled', `${jsz} says JetStream is disabled on this server`);
    if (t) await tlsGate(run, t, urlTargets([server], 'nats'), timeout, now);
    const nc = await natsConnect([server], timeout, t);
    try {
      run.evidence.server = { id: nc.info?.server_id, version: nc.info?.version, jetstream: nc.info?.jetstream ?? false };
      const jsm = await jetstreamManager(nc, { timeout }).catch(jsError);
      const account = await jsm.getAccountInfo().catch(jsError);
      run.evidence.account = { streams: account.streams, consumers: account.consumers, storage: account.storage, api: account.api };
    } finally {
      await within(nc.close(), timeout, 'close').catch(() => undefined);
    }
  });
}

export function natsPubSubCheck(p: CheckParams<'nats.pubsub'>, options: RunCheckOptions): Promise<CheckOutcome> {
  const timeout = timeoutOf(p);
  const nonce = toHex(randomBytes(16));
  const subject = `${NATS_SMOKE_PREFIX}${nonce}`;
  const stream = `${NATS_SMOKE_STREAM_PREFIX}${nonce}`;
  const payload = `navin-smoke-${nonce}`;
  const method =
    `through ${p.endpoints.join(', ')}: subscribe to a fresh subject ${subject}, publish one message, wait for its delivery` +
    (p.jetstream ? `; create a file-backed stream ${stream}, publish to it with an acknowledgement, read the message back` : '') +
    '; the subscription' +
    (p.jetstream ? ' and the stream are' : ' is') +
    ' removed even after a failure' +
    (p.tls ? `; each server's TLS handshake judged first, after its INFO in clear${trustWords(p.tls)}` : '');
  return runBody(
    'nats.pubsub',
    method,
    options,
    async (run) => {
      run.evidence.subject = subject;
      run.evidence.nonce = nonce;
      const t = p.tls ? await loadTls(p.tls) : undefined;
      const nc = await run.step(
        'connect',
        async () => {
          if (t) await tlsGate(run, t, urlTargets(p.endpoints, 'nats'), timeout, clockOf(options));
          return natsConnect(p.endpoints, timeout, t);
        },
        (c) => `connected to ${c.getServer()}`,
      );
      run.evidence.server = { id: nc.info?.server_id, version: nc.info?.version };
      let jsm: JetStreamManager | undefined;
      const sub = nc.subscribe(subject, { max: 1 });
      try {
        // The server holds the subscription once a flush round trip has come back.
        await run.step(
          'subscribe',
          () => within(nc.flush(), timeout, 'subscribe'),
          () => `subscribed to ${subject}`,
        );
        await run.step(
          'publish and deliver',
          async () => {
            const t0 = performance.now();
            nc.publish(subject, payload);
            const got = await new Promise<string>((resolve, reject) => {
              const timer = setTimeout(
                () => reject(new CheckFailure('delivery_failed', `no delivery on ${subject} within ${timeout} ms`)),
                timeout,
              );
              (async () => {
                for await (const m of sub) return m.string();
                throw new CheckFailure('delivery_failed', `the subscription on ${subject} closed without a message`);
              })()
                .then(resolve, reject)
                .finally(() => clearTimeout(timer));
            });
            run.evidence.delivered = got;
            run.evidence.delivery_ms = Math.round(performance.now() - t0);
            if (got !== payload)
              throw new CheckFailure('value_mismatch', `delivered ${JSON.stringify(got)}, published ${JSON.stringify(payload)}`);
            return got;
          },
          () => `delivered in ${String(run.evidence.delivery_ms)} ms`,
        );
        if (p.jetstream) {
          run.evidence.stream = stream;
          jsm = await run.step('stream create', async () => {
            const m = await jetstreamManager(nc, { timeout }).catch(jsError);
            await m.streams.add({ name: stream, subjects: [`${subject}.js`], storage: 'file', max_msgs: 10 });
            return m;
          });
          const js = jetstream(nc, { timeout });
          const ack = await run.step(
            'stream publish',
            () => js.publish(`${subject}.js`, payload),
            (a) => `stored as sequence ${a.seq}`,
          );
          run.evidence.stream_seq = ack.seq;
          const m = jsm;
          await run.step(
            'stream read',
            async () => {
              const got = await m.streams.getMessage(stream, { seq: ack.seq });
              if (!got) throw new CheckFailure('delivery_failed', `message ${ack.seq} is not in the stream`);
              run.evidence.stream_read = got.string();
              if (got.string() !== payload)
                throw new CheckFailure('value_mismatch', `read ${JSON.stringify(got.string())} from the stream`);
              return got;
            },
            (g) => `read sequence ${g.seq} back`,
          );
        }
      } finally {
        await run.cleanup('unsubscribe', async () => {
          if (!sub.isClosed()) sub.unsubscribe();
          await within(nc.flush(), timeout, 'unsubscribe');
        });
        if (p.jetstream) {
          // Deleted even when creating it seemed to fail: a create that timed out may have gone through.
          await run.cleanup('stream delete', async () => {
            const m = jsm ?? (await jetstreamManager(nc, { timeout }));
            try {
              await m.streams.delete(stream);
              return `deleted ${stream}`;
            } catch (error) {
              if ((error as { name?: unknown }).name === 'StreamNotFoundError') return `${stream} was never created`;
              throw error;
            }
          });
        }
        await within(nc.close(), timeout, 'close').catch(() => undefined);
      }
    },
    true,
  );
}
