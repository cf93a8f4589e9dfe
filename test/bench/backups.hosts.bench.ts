// Backup and restore of a 100 MB etcd on a booted host, through the console (signed plans: the snapshot, the
// sha256 of the file, etcdctl's verification; the restore verified first, then the catalog's steps, health,
// readiness and functional test) beside the same etcdctl commands run by hand inside the host in the same run.
// Each backup iteration also deletes what it wrote (by the console's side and by hand alike), so the disk stays flat.
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { until } from '../support/agent-harness';
import { operate as operateOn, serviceHosts, sh, type ServiceHosts } from '../support/service-hosts';

const VERSION = '3.4.23-1';
const MB = 100;

let s: ServiceHosts;
let cluster = '';
let setId = '';
let etcdctl = '';
let restoreByHand = '';

async function backUp(): Promise<string> {
  const r = await s.h.api('POST', `/api/v1/clusters/${cluster}/service-backups`, { services: ['etcd'] });
  if (r.status !== 202) throw new Error(JSON.stringify(r.body));
  const set = await until(
    'backup set',
    async () => {
      const g = await s.h.api('GET', `/api/v1/clusters/${cluster}/service-backups/${r.body.id}`);
      return g.body.state !== 'running' ? g.body : undefined;
    },
    600_000,
    50,
  );
  if (set.state !== 'succeeded') throw new Error(`${set.code}: ${set.message}`);
  return set.id as string;
}

beforeAll(async () => {
  s = await serviceHosts([1], [['etcd', VERSION]]);
  cluster = s.clusters[0]!;
  const host = s.hosts[0]!;
  const op = await operateOn(s.h, 'POST', `/api/v1/clusters/${cluster}/services`, {
    service: 'etcd',
    version: VERSION,
    hosts: [host.name],
  });
  if (op.state !== 'succeeded') throw new Error(`${op.code}: ${op.message}`);
  etcdctl = `ETCDCTL_API=3 /opt/navin/etcd/${VERSION}/etcdctl --endpoints=http://${host.address}:2379`;
  // 100 values of 1 MB each (distinct keys; etcd keeps every value in its database file).
  await sh(
    host,
    `head -c 750000 /dev/urandom | base64 -w0 > /root/value && for i in $(seq ${MB}); do ${etcdctl} put bench/$i < /root/value >/dev/null; done`,
  );
  setId = await backUp();
  const snapshot = `/var/lib/navin/backups/${setId}/etcd/etcd-snapshot.db`;
  const data = '/var/lib/navin/etcd';
  restoreByHand = [
    'systemctl stop navin-etcd.service',
    `rm -rf ${data}/restoring ${data}/member.before-restore`,
    `sha256sum ${snapshot} >/dev/null`,
    `${etcdctl.replace(/--endpoints=\S+/, '')} snapshot restore ${snapshot} --name=${host.name} --data-dir=${data}/restoring ` +
      `--initial-cluster=${host.name}=http://${host.address}:2380 --initial-cluster-token=navin-etcd-${cluster.slice(0, 8)} ` +
      `--initial-advertise-peer-urls=http://${host.address}:2380 >/dev/null 2>&1`,
    `mv ${data}/member ${data}/member.before-restore`,
    `mv ${data}/restoring/member ${data}/member`,
    `rm -rf ${data}/restoring`,
    `chown -R --reference=${data} ${data}/member`,
    'systemctl start navin-etcd.service',
    `until ${etcdctl} endpoint health >/dev/null 2>&1; do sleep 0.05; done`,
    `test "$(${etcdctl} get bench/1 --print-value-only | head -c 100)" = "$(head -c 100 /root/value)"`,
  ].join(' && ');
  const size = Number((await sh(host, `stat -c %s ${snapshot}`)).trim());
  console.log(`etcd snapshot: ${(size / 1e6).toFixed(1)} MB (divide by the mean times below for the throughput)`);
}, 900_000);

afterAll(async () => {
  await s?.close();
}, 180_000);

const opts = { iterations: 3, warmupIterations: 1, time: 0 };

describe('etcd backup (100 MB): the console vs etcdctl by hand', () => {
  bench(
    'backup set through the console (snapshot, sha256, etcdctl snapshot status)',
    async () => {
      const id = await backUp();
      await sh(s.hosts[0]!, `rm -rf /var/lib/navin/backups/${id}`);
    },
    opts,
  );

  bench(
    'etcdctl snapshot save, sha256sum, snapshot status by hand (baseline)',
    async () => {
      await sh(
        s.hosts[0]!,
        `mkdir -p /root/snap && ${etcdctl} snapshot save /root/snap/s.db >/dev/null && sha256sum /root/snap/s.db >/dev/null && ` +
          `${etcdctl.replace(/--endpoints=\S+/, '')} snapshot status /root/snap/s.db >/dev/null && rm -rf /root/snap`,
      );
    },
    opts,
  );
});

describe('etcd restore (100 MB): the console vs etcdctl by hand', () => {
  bench(
    'restore through the console (hashes and status verified, steps, health, readiness, functional test)',
    async () => {
      const op = await operateOn(s.h, 'POST', `/api/v1/clusters/${cluster}/service-backups/${setId}/restore`, { service: 'etcd' });
      if (op.state !== 'succeeded') throw new Error(`${op.code}: ${op.message}`);
    },
    opts,
  );

  bench(
    'stop, sha256sum, etcdctl snapshot restore, move, chown, start, health by hand (baseline)',
    async () => {
      await sh(s.hosts[0]!, restoreByHand);
    },
    opts,
  );
});
