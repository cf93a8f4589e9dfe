// A three-member etcd with TLS on booted Debian 12 hosts, restored through the API from one backup set: 50 keys
// written, the set taken, keys then deleted, overwritten and added, and the restore brings every member back to the
// snapshot (each member read on its own), every check passing over TLS, the snapshot's copies gone from the
// members that did not take it.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { until } from '../../../support/agent-harness';
import { describeHosts, type TestHost } from '../../../support/hosts';
import { operate as operateOn, serviceHosts, sh, type ServiceHosts } from '../../../support/service-hosts';

const ETCD = '3.4.23-1';
const TLS = '--cacert=/etc/navin/etcd/tls/ca.crt --cert=/etc/navin/etcd/tls/tls.crt --key=/etc/navin/etcd/tls/tls.key';
const KEYS = Array.from({ length: 50 }, (_, i) => `restore-test/k${String(i).padStart(2, '0')}`);

describeHosts('a three-member etcd restored from one backup set on booted hosts', () => {
  let s: ServiceHosts;
  let trio: TestHost[];
  let cluster: string;

  beforeAll(async () => {
    s = await serviceHosts([3], [['etcd', ETCD]]);
    trio = s.hosts;
    cluster = s.clusters[0]!;
    const op = await operateOn(s.h, 'POST', `/api/v1/clusters/${cluster}/services`, {
      service: 'etcd',
      version: ETCD,
      hosts: trio.map((h) => h.name),
      tls: true,
    });
    if (op.state !== 'succeeded') throw new Error(`etcd install: ${op.code} ${op.message}`);
  }, 900_000);

  afterAll(async () => {
    await s?.close();
  }, 180_000);

  /** etcdctl on a member, against its own endpoint only, with its certificate. */
  const etcdctl = (host: TestHost, args: string): Promise<string> =>
    sh(host, `ETCDCTL_API=3 /opt/navin/etcd/${ETCD}/etcdctl --endpoints=https://${host.address}:2379 ${TLS} ${args}`);
  /** The member's own copy of the keyspace under the test's prefix (a serializable read: no leader asked). */
  const keyspace = async (host: TestHost): Promise<Record<string, string>> => {
    const lines = (await etcdctl(host, 'get --prefix restore-test/ --consistency=s')).split('\n').filter(Boolean);
    const out: Record<string, string> = {};
    for (let i = 0; i + 1 < lines.length; i += 2) out[lines[i]!] = lines[i + 1]!;
    return out;
  };
  const original = Object.fromEntries(KEYS.map((k, i) => [k, `value-${i}`]));

  test('50 keys backed up, then deleted, overwritten and added to, are all back on every member after the restore', async () => {
    const [first, second] = trio as [TestHost, TestHost, TestHost];
    for (const k of KEYS) await etcdctl(first, `put ${k} ${original[k]}`);
    const r = await s.h.api('POST', `/api/v1/clusters/${cluster}/service-backups`, { services: ['etcd'] });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const set = await until(
      `backup set ${r.body.id}`,
      async () => {
        const g = await s.h.api('GET', `/api/v1/clusters/${cluster}/service-backups/${r.body.id}`);
        return g.body.state !== 'running' ? g.body : undefined;
      },
      240_000,
      200,
    );
    expect(set.state, set.message).toBe('succeeded');
    const taken = set.backups[0];
    expect(taken.host.name).toBe(first.name);

    // After the backup: ten keys deleted, ten overwritten, five new ones — through another member.
    for (const k of KEYS.slice(0, 10)) await etcdctl(second, `del ${k}`);
    for (const k of KEYS.slice(10, 20)) await etcdctl(second, `put ${k} changed`);
    for (let i = 0; i < 5; i++) await etcdctl(second, `put restore-test/later${i} x`);
    expect(Object.keys(await keyspace(first))).toHaveLength(45);

    const op = await operateOn(s.h, 'POST', `/api/v1/clusters/${cluster}/service-backups/${set.id}/restore`, { service: 'etcd' }, 360_000);
    const last = op.phases.at(-1)?.plans?.map((p: any) => p.tasks.map((t: any) => [t.id, t.status, t.message]));
    expect(op.state, JSON.stringify({ code: op.code, message: op.message, last }).slice(0, 6000)).toBe('succeeded');
    expect(op.phases.map((p: any) => p.name)).toEqual([
      'verify the backup',
      'copy the backup to every member',
      'stop every member',
      'restore every member',
      'readiness and functional test',
    ]);
    expect(op.phases[1].plans).toHaveLength(2);
    expect(op.phases[3].plans).toHaveLength(3);

    // Every member holds the snapshot's keyspace again, read from its own copy: 50 keys, every value as backed up.
    for (const h of trio) expect(await keyspace(h), h.name).toEqual(original);
    const members = await etcdctl(first, 'member list');
    for (const h of trio) expect(members).toContain(`https://${h.address}:2380`);
    expect(members.trim().split('\n')).toHaveLength(3);

    // Live, ready and functional over TLS, as the service's checks saw it after the restore.
    const v = (await s.h.api('GET', `/api/v1/clusters/${cluster}/services/etcd`)).body;
    expect(v.state).toBe('running');
    const outcomes = [
      ...trio.map((h) => v.checks.liveness[s.ids.get(h.name)!].outcome),
      v.checks.readiness.outcome,
      v.checks.functional.outcome,
    ];
    for (const o of outcomes) {
      expect(o.status, JSON.stringify(o)).toBe('pass');
      expect(JSON.stringify(o.evidence), o.kind).toMatch(/"protocol":"TLSv1\.[23]"/);
    }
    expect(v.checks.readiness.outcome.evidence.members).toHaveLength(3);

    // The set's snapshot stays where it was taken; the copies the other members were given are gone.
    const path = taken.files[0].path;
    expect((await sh(first, `sha256sum ${path}`)).split(' ')[0]).toBe(taken.files[0].sha256);
    for (const h of trio.slice(1)) expect((await sh(h, `test -e ${path} && echo there || echo gone`)).trim()).toBe('gone');
    // The data before the restore is kept aside on each member, as the catalog says.
    for (const h of trio) expect((await sh(h, 'test -d /var/lib/navin/etcd/member.before-restore && echo kept')).trim()).toBe('kept');
  });
});
