// NATS checks against Debian's nats-server 2.9 run here with JetStream on loopback. Each check passes on the
// healthy server and fails with evidence when it is broken by hand; the server's own monitoring endpoints
// confirm that the functional test leaves no subscription, connection or stream behind, also when it fails.
import { chmodSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCheck, NATS_SMOKE_PREFIX, NATS_SMOKE_STREAM_PREFIX } from '../../../agent/checks';
import { startNats, type NatsServer } from '../../support/services/nats';
import { freePorts } from '../../support/services/ports';

let nats: NatsServer;
beforeAll(async () => {
  nats = await startNats({ jetstream: true });
});
afterAll(() => nats?.close());

const monitor = async (path: string): Promise<any> => (await fetch(`${nats.monitorUrl}${path}`)).json();

/** What the smoke tests could have left on the server: subscriptions, connections and streams of theirs. */
async function leftovers(): Promise<{ subscriptions: string[]; connections: number; streams: string[] }> {
  const subsz = await monitor('/subsz?subs=1');
  const connz = await monitor('/connz?subs=1');
  const jsz = await monitor('/jsz?streams=true');
  const streams = (jsz.account_details ?? []).flatMap((a: any) => (a.stream_detail ?? []).map((s: any) => s.name));
  return {
    subscriptions: (subsz.subscriptions_list ?? []).map((s: any) => s.subject).filter((s: string) => s.startsWith(NATS_SMOKE_PREFIX)),
    connections: (connz.connections ?? []).filter((c: any) => c.name === 'navin-check').length,
    streams: streams.filter((s: string) => s.startsWith(NATS_SMOKE_STREAM_PREFIX)),
  };
}
const clean = { subscriptions: [], connections: 0, streams: [] };

function chmodTree(path: string, writable: boolean): void {
  const mode = statSync(path).mode & 0o777;
  chmodSync(path, writable ? mode | 0o200 : mode & ~0o222);
  if (statSync(path).isDirectory()) for (const e of readdirSync(path)) chmodTree(join(path, e), writable);
}

test('liveness, readiness and the functional test with a JetStream stream pass on a healthy server, leaving nothing behind', async () => {
  const live = await runCheck('nats.healthz', { monitor_port: nats.monitorPort });
  expect(live).toMatchObject({ status: 'pass', evidence: { status: 200 } });

  const ready = await runCheck('nats.jetstream', { monitor_port: nats.monitorPort, client_port: nats.clientPort });
  expect(ready.status, JSON.stringify(ready.error)).toBe('pass');
  expect(ready.evidence).toMatchObject({
    jsz: { disabled: false, config: { store_dir: expect.stringContaining(nats.storeDir!) } },
    server: { version: '2.9.10', jetstream: true },
  });

  const smoke = await runCheck('nats.pubsub', { endpoints: [nats.url], jetstream: true });
  expect(smoke.status, JSON.stringify(smoke.error)).toBe('pass');
  expect(smoke.steps?.map((s) => [s.name, s.status])).toEqual([
    ['connect', 'pass'],
    ['subscribe', 'pass'],
    ['publish and deliver', 'pass'],
    ['stream create', 'pass'],
    ['stream publish', 'pass'],
    ['stream read', 'pass'],
    ['unsubscribe', 'pass'],
    ['stream delete', 'pass'],
  ]);
  const payload = `navin-smoke-${String(smoke.evidence.nonce)}`;
  expect(smoke.evidence).toMatchObject({ delivered: payload, stream_read: payload, stream_seq: 1 });
  expect(await leftovers()).toEqual(clean);
});

test('a functional test whose stored message vanishes fails, and still removes its subscription and its stream', async () => {
  const nc = await connect({ servers: nats.url });
  try {
    const jsm = await jetstreamManager(nc);
    const outcome = await runCheck(
      'nats.pubsub',
      { endpoints: [nats.url], jetstream: true, timeout_ms: 3000 },
      {
        // The stream is purged between the publish and the read, as a retention limit or an operator could.
        onStep: async (step, evidence) => {
          if (step.name === 'stream publish') await jsm.streams.purge(String(evidence.stream));
        },
      },
    );
    expect(outcome.status).toBe('fail');
    expect(outcome.error?.code).toMatch(/^(delivery_failed|service_error)$/);
    expect(outcome.steps?.map((s) => [s.name, s.status])).toEqual([
      ['connect', 'pass'],
      ['subscribe', 'pass'],
      ['publish and deliver', 'pass'],
      ['stream create', 'pass'],
      ['stream publish', 'pass'],
      ['stream read', 'fail'],
      ['unsubscribe', 'pass'],
      ['stream delete', 'pass'],
    ]);
  } finally {
    await nc.close();
  }
  expect(await leftovers()).toEqual(clean);
});

test('a store made read-only: core messaging and readiness go on, the stream cannot be created, and the next start fails', async () => {
  chmodTree(nats.storeDir!, false);
  try {
    // What really happens: the running server only notices when it must create a stream's folder.
    expect((await runCheck('nats.jetstream', { monitor_port: nats.monitorPort, client_port: nats.clientPort })).status).toBe('pass');
    const smoke = await runCheck('nats.pubsub', { endpoints: [nats.url], jetstream: true });
    expect(smoke).toMatchObject({
      status: 'fail',
      error: { code: 'service_error', message: expect.stringMatching(/error creating store for stream/) },
    });
    expect(smoke.steps?.map((s) => [s.name, s.status])).toEqual([
      ['connect', 'pass'],
      ['subscribe', 'pass'],
      ['publish and deliver', 'pass'],
      ['stream create', 'fail'],
      ['unsubscribe', 'pass'],
      ['stream delete', 'pass'],
    ]);
    expect(nats.process.log).toMatch(/could not create storage directory.*permission denied/);
    expect(await leftovers()).toEqual(clean);

    // Restarted on the read-only store, the server refuses to start at all.
    await nats.stop();
    nats.process.spawn();
    expect(await nats.process.exited()).not.toBe(0);
    expect(nats.process.log).toMatch(/storage directory is not writable/);
    const live = await runCheck('nats.healthz', { monitor_port: nats.monitorPort, timeout_ms: 2000 });
    expect(live).toMatchObject({ status: 'fail', error: { code: 'unreachable' } });
    const ready = await runCheck('nats.jetstream', { monitor_port: nats.monitorPort, client_port: nats.clientPort, timeout_ms: 2000 });
    expect(ready).toMatchObject({ status: 'fail', error: { code: 'unreachable' } });
  } finally {
    chmodTree(nats.storeDir!, true);
  }
  await nats.start();
  expect((await runCheck('nats.pubsub', { endpoints: [nats.url], jetstream: true })).status).toBe('pass');
});

/**
 * Until every thread of the process has entered the stop: SIGSTOP returns at once, and on a loaded machine a
 * server thread could still answer the subscribe's flush before it is descheduled.
 */
async function stopped(pid: number): Promise<void> {
  const state = (task: string): string => {
    const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '';
  };
  for (let i = 0; i < 200; i++) {
    if (readdirSync(`/proc/${pid}/task`).every((task) => /^[Tt]$/.test(state(task)))) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`process ${pid} did not stop`);
}

test('a server that hangs after the connect fails the functional test as a timeout, within its bound', async () => {
  const pid = nats.process.pid!;
  const t0 = performance.now();
  let outcome;
  try {
    outcome = await runCheck(
      'nats.pubsub',
      { endpoints: [nats.url], timeout_ms: 800 },
      {
        onStep: async (step) => {
          if (step.name === 'connect') {
            process.kill(pid, 'SIGSTOP');
            await stopped(pid);
          }
        },
      },
    );
  } finally {
    process.kill(pid, 'SIGCONT');
  }
  expect(performance.now() - t0).toBeLessThan(800 * 4 + 1500);
  expect(outcome).toMatchObject({ status: 'fail', error: { code: 'timeout' } });
  expect(outcome.steps?.map((s) => [s.name, s.status])).toEqual([
    ['connect', 'pass'],
    ['subscribe', 'fail'],
    ['unsubscribe', 'fail'],
  ]);
  // Once the server runs again it sees the connection gone, and with it the subscription.
  let left = await leftovers();
  for (let i = 0; i < 20 && JSON.stringify(left) !== JSON.stringify(clean); i++) {
    await new Promise((r) => setTimeout(r, 100));
    left = await leftovers();
  }
  expect(left).toEqual(clean);
});

test('wrong ports fail readiness and liveness as unreachable', async () => {
  const [wrong] = (await freePorts(1)) as [number];
  expect(await runCheck('nats.healthz', { monitor_port: wrong, timeout_ms: 2000 })).toMatchObject({
    status: 'fail',
    error: { code: 'unreachable' },
  });
  const badMonitor = await runCheck('nats.jetstream', { monitor_port: wrong, client_port: nats.clientPort, timeout_ms: 2000 });
  expect(badMonitor).toMatchObject({ status: 'fail', error: { code: 'unreachable' } });
  const badClient = await runCheck('nats.jetstream', { monitor_port: nats.monitorPort, client_port: wrong, timeout_ms: 2000 });
  expect(badClient).toMatchObject({ status: 'fail', error: { code: 'unreachable' } });
  expect(badClient.evidence.jsz).toMatchObject({ disabled: false });
});

test('a server without JetStream fails readiness as jetstream_disabled while plain messaging works', async () => {
  const plain = await startNats({ jetstream: false });
  try {
    const ready = await runCheck('nats.jetstream', { monitor_port: plain.monitorPort, client_port: plain.clientPort });
    expect(ready).toMatchObject({ status: 'fail', error: { code: 'jetstream_disabled' }, evidence: { jsz: { disabled: true } } });
    expect((await runCheck('nats.pubsub', { endpoints: [plain.url] })).status).toBe('pass');
    const withStream = await runCheck('nats.pubsub', { endpoints: [plain.url], jetstream: true, timeout_ms: 2000 });
    expect(withStream).toMatchObject({ status: 'fail', error: { code: 'jetstream_disabled' } });
  } finally {
    await plain.close();
  }
});

test('a stopped server fails liveness and the functional test at connect', async () => {
  await nats.stop();
  try {
    expect(await runCheck('nats.healthz', { monitor_port: nats.monitorPort, timeout_ms: 2000 })).toMatchObject({
      status: 'fail',
      error: { code: 'unreachable' },
    });
    const smoke = await runCheck('nats.pubsub', { endpoints: [nats.url], timeout_ms: 2000 });
    expect(smoke).toMatchObject({ status: 'fail', error: { code: 'unreachable' } });
    expect(smoke.steps).toEqual([expect.objectContaining({ name: 'connect', status: 'fail' })]);
  } finally {
    await nats.start();
  }
});
