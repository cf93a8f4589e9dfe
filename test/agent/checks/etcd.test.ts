// etcd checks against Debian's etcd 3.4 run here: one member and a three-member cluster on loopback. Each check
// passes on the healthy service and fails with evidence when the service is broken by hand; etcdctl, a client
// independent of ours, confirms that the functional test leaves no key behind, also when it fails.
import { execFile } from 'node:child_process';
import { chmodSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCheck, ETCD_SMOKE_PREFIX } from '../../../agent/checks';
import { startEtcd, type EtcdCluster } from '../../support/services/etcd';
import { freePorts } from '../../support/services/ports';

const run = promisify(execFile);
const etcdctl = async (endpoints: string[], ...args: string[]) =>
  (
    await run('/usr/bin/etcdctl', [`--endpoints=${endpoints.join(',')}`, '--command-timeout=5s', ...args], {
      env: { ...process.env, ETCDCTL_API: '3' },
    })
  ).stdout;
const smokeKeys = async (endpoints: string[]) => (await etcdctl(endpoints, 'get', '--prefix', ETCD_SMOKE_PREFIX, '--keys-only')).trim();
const port = (url: string) => Number(new URL(url).port);

/** chmod -R on a tree: a-w or u+w. */
function chmodTree(path: string, writable: boolean): void {
  const mode = statSync(path).mode & 0o777;
  chmodSync(path, writable ? mode | 0o200 : mode & ~0o222);
  if (statSync(path).isDirectory()) for (const e of readdirSync(path)) chmodTree(join(path, e), writable);
}

describe('one member', () => {
  let etcd: EtcdCluster;
  beforeAll(async () => {
    etcd = await startEtcd(1);
  });
  afterAll(() => etcd?.close());

  test('liveness, readiness and the functional test pass on a healthy member, and the key is gone afterwards', async () => {
    const m = etcd.members[0]!;
    const live = await runCheck('etcd.health', { port: m.clientPort });
    expect(live).toMatchObject({ kind: 'etcd.health', status: 'pass', evidence: { status: 200 } });
    expect(live.error).toBeUndefined();

    const ready = await runCheck('etcd.cluster', { endpoints: etcd.endpoints });
    expect(ready.status, JSON.stringify(ready.error)).toBe('pass');
    expect(ready.evidence.members).toEqual([expect.objectContaining({ name: 'm1', healthy: true })]);
    expect(ready.evidence.leader).toMatchObject({ name: 'm1' });

    const smoke = await runCheck('etcd.kv', { endpoints: etcd.endpoints });
    expect(smoke.status, JSON.stringify(smoke.error)).toBe('pass');
    expect(smoke.steps).toEqual([
      expect.objectContaining({ name: 'put', status: 'pass' }),
      expect.objectContaining({ name: 'get', status: 'pass' }),
      expect.objectContaining({ name: 'delete', status: 'pass' }),
    ]);
    expect(smoke.evidence).toMatchObject({ read: `navin-smoke-${String(smoke.evidence.nonce)}`, deleted: 1 });
    expect(await smokeKeys(etcd.endpoints)).toBe('');
    // A fresh nonce each run.
    const again = await runCheck('etcd.kv', { endpoints: etcd.endpoints });
    expect(again.evidence.nonce).not.toBe(smoke.evidence.nonce);
  });

  test('a functional test that fails after its put still deletes its key', async () => {
    const outcome = await runCheck(
      'etcd.kv',
      { endpoints: etcd.endpoints },
      {
        // Someone else writes the same key between the put and the get: the read-back no longer matches.
        onStep: async (step, evidence) => {
          if (step.name === 'put') await etcdctl(etcd.endpoints, 'put', String(evidence.key), 'tampered');
        },
      },
    );
    expect(outcome.status).toBe('fail');
    expect(outcome.error).toMatchObject({ code: 'value_mismatch' });
    expect(outcome.evidence.read).toBe('tampered');
    expect(outcome.steps?.map((s) => [s.name, s.status])).toEqual([
      ['put', 'pass'],
      ['get', 'fail'],
      ['delete', 'pass'],
    ]);
    expect(await smokeKeys(etcd.endpoints)).toBe('');
  });

  test('a wrong port fails liveness and readiness as unreachable, with the endpoint in the evidence', async () => {
    const [wrong] = (await freePorts(1)) as [number];
    const live = await runCheck('etcd.health', { port: wrong, timeout_ms: 2000 });
    expect(live).toMatchObject({ status: 'fail', error: { code: 'unreachable' } });
    const ready = await runCheck('etcd.cluster', { endpoints: [`http://127.0.0.1:${wrong}`], timeout_ms: 2000 });
    expect(ready).toMatchObject({ status: 'fail', error: { code: 'unreachable' } });
    expect(ready.evidence.endpoints).toEqual([
      expect.objectContaining({ endpoint: `http://127.0.0.1:${wrong}`, error: expect.stringMatching(/ECONNREFUSED|UNAVAILABLE/) }),
    ]);
  });

  test('a read-only data dir: the running member keeps serving, and its next start fails, which liveness reports', async () => {
    const m = etcd.members[0]!;
    chmodTree(m.dataDir, false);
    try {
      // The WAL and the database are already open for writing: modes are checked at open, so puts still succeed.
      const stillUp = await runCheck('etcd.kv', { endpoints: etcd.endpoints });
      expect(stillUp.status, JSON.stringify(stillUp.error)).toBe('pass');

      await m.stop();
      m.process.spawn();
      expect(await m.process.exited()).not.toBe(0);
      expect(m.process.log).toMatch(/cannot access data directory.*permission denied/);

      const live = await runCheck('etcd.health', { port: m.clientPort, timeout_ms: 2000 });
      expect(live).toMatchObject({ status: 'fail', error: { code: 'unreachable' } });
      const smoke = await runCheck('etcd.kv', { endpoints: etcd.endpoints, timeout_ms: 2000 });
      expect(smoke).toMatchObject({ status: 'fail', error: { code: 'unreachable' } });
      // The delete was tried anyway and its failure is reported, not hidden.
      expect(smoke.steps?.map((s) => [s.name, s.status])).toEqual([
        ['put', 'fail'],
        ['delete', 'fail'],
      ]);
    } finally {
      chmodTree(m.dataDir, true);
    }
    await m.start();
    expect((await runCheck('etcd.kv', { endpoints: etcd.endpoints })).status).toBe('pass');
    expect(await smokeKeys(etcd.endpoints)).toBe('');
  });

  test('a stopped member fails liveness and readiness', async () => {
    const m = etcd.members[0]!;
    await m.stop();
    try {
      expect(await runCheck('etcd.health', { port: m.clientPort, timeout_ms: 2000 })).toMatchObject({
        status: 'fail',
        error: { code: 'unreachable' },
      });
      const ready = await runCheck('etcd.cluster', { endpoints: etcd.endpoints, timeout_ms: 2000 });
      expect(ready).toMatchObject({ status: 'fail', error: { code: 'unreachable' } });
    } finally {
      await m.start();
    }
    expect((await runCheck('etcd.health', { port: m.clientPort })).status).toBe('pass');
  });
});

describe('three members', () => {
  let etcd: EtcdCluster;
  beforeAll(async () => {
    etcd = await startEtcd(3);
  });
  afterAll(() => etcd?.close());

  test('readiness names three healthy members and their one leader; the functional test passes', async () => {
    const ready = await runCheck('etcd.cluster', { endpoints: etcd.endpoints });
    expect(ready.status, JSON.stringify(ready.error)).toBe('pass');
    expect((ready.evidence.members as { name: string; healthy: boolean }[]).map((m) => [m.name, m.healthy]).sort()).toEqual([
      ['m1', true],
      ['m2', true],
      ['m3', true],
    ]);
    expect(['m1', 'm2', 'm3']).toContain((ready.evidence.leader as { name: string }).name);
    const smoke = await runCheck('etcd.kv', { endpoints: etcd.endpoints });
    expect(smoke.status, JSON.stringify(smoke.error)).toBe('pass');
    expect(await smokeKeys(etcd.endpoints)).toBe('');
  });

  test('one member of three down: readiness fails naming it, also when it is not among the endpoints; quorum still serves', async () => {
    const down = etcd.members[2]!;
    const up = etcd.members.slice(0, 2);
    await down.stop();
    try {
      const ready = await runCheck('etcd.cluster', { endpoints: etcd.endpoints, timeout_ms: 2000 });
      expect(ready).toMatchObject({ status: 'fail', error: { code: 'member_unhealthy' } });
      expect(ready.error!.message).toMatch(/1 of 3 members not healthy: m3/);
      expect((ready.evidence.members as { name: string; healthy: boolean }[]).map((m) => [m.name, m.healthy]).sort()).toEqual([
        ['m1', true],
        ['m2', true],
        ['m3', false],
      ]);
      // Only the two live members listed: the member list still names m3, and it is probed on its own URL.
      const partial = await runCheck('etcd.cluster', { endpoints: up.map((m) => m.clientUrl), timeout_ms: 2000 });
      expect(partial).toMatchObject({ status: 'fail', error: { code: 'member_unhealthy' } });
      expect(partial.error!.message).toMatch(/m3/);

      expect((await runCheck('etcd.health', { port: port(down.clientUrl), timeout_ms: 2000 })).status).toBe('fail');
      for (const m of up) expect((await runCheck('etcd.health', { port: m.clientPort })).status).toBe('pass');
      // Two of three keep a quorum: the service still works, it is just not fully ready.
      expect((await runCheck('etcd.kv', { endpoints: up.map((m) => m.clientUrl) })).status).toBe('pass');
    } finally {
      await down.start();
    }
    let ready = await runCheck('etcd.cluster', { endpoints: etcd.endpoints });
    for (let i = 0; i < 50 && ready.status !== 'pass'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      ready = await runCheck('etcd.cluster', { endpoints: etcd.endpoints });
    }
    expect(ready.status, JSON.stringify(ready.error)).toBe('pass');
  });
});
