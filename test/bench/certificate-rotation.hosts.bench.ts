// Rotating every certificate of a three-member etcd with TLS on booted hosts: a tick of the manager's renewal
// schedule (as 61 days on) and its renewal operation to its end, member after member (a new key and CSR on the
// host, the signature, the switch, a restart, liveness and the cluster's readiness), beside the same steps by hand
// inside each host in the same run: a new RSA key made with the host's Node, the files put in place, a restart
// and `etcdctl endpoint health` until the member answers, then the next member.
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { until } from '../support/agent-harness';
import type { TestHost } from '../support/hosts';
import { operate as operateOn, serviceHosts, sh, type ServiceHosts } from '../support/service-hosts';

const ETCD = '3.4.23-1';
const TLS_DIR = '/etc/navin/etcd/tls';
let s: ServiceHosts;

beforeAll(async () => {
  s = await serviceHosts([3], [['etcd', ETCD]]);
  const op = await operateOn(s.h, 'POST', `/api/v1/clusters/${s.clusters[0]}/services`, {
    service: 'etcd',
    version: ETCD,
    hosts: s.hosts.map((h) => h.name),
    tls: true,
  });
  if (op.state !== 'succeeded') throw new Error(`etcd: ${op.code} ${op.message}`);
}, 900_000);

afterAll(async () => {
  await s?.close();
}, 180_000);

const opts = { iterations: 3, warmupIterations: 1, time: 0 };

/**
 * One member by hand: a new key made as the agent makes it (RSA 2048 by the host's Node), the certificate and the
 * key put in place by a copy and a rename, a restart, and the member's health until it answers. The key made is
 * set aside rather than used (the bench holds no service CA key to sign it): etcd restarts on the files it has.
 */
const byHand = (h: TestHost): string =>
  [
    `/usr/lib/navin-node-agent/node -e 'const c=require("crypto");const k=c.generateKeyPairSync("rsa",{modulusLength:2048}).privateKey;require("fs").writeFileSync("/root/rotated.key",k.export({type:"pkcs8",format:"pem"}),{mode:0o600})'`,
    `cp ${TLS_DIR}/tls.crt ${TLS_DIR}/tls.crt.next && mv -f ${TLS_DIR}/tls.crt.next ${TLS_DIR}/tls.crt`,
    `cp ${TLS_DIR}/tls.key ${TLS_DIR}/tls.key.next && mv -f ${TLS_DIR}/tls.key.next ${TLS_DIR}/tls.key`,
    'systemctl restart navin-etcd.service',
    `for i in $(seq 600); do /opt/navin/etcd/${ETCD}/etcdctl --endpoints=https://${h.address}:2379 --cacert=${TLS_DIR}/ca.crt --cert=${TLS_DIR}/tls.crt --key=${TLS_DIR}/tls.key --command-timeout=2s endpoint health >/dev/null 2>&1 && break; sleep 0.1; done`,
  ].join(' && ');

describe('every certificate of a 3-member etcd rotated', () => {
  bench(
    'by the renewal schedule: a tick (61 days on), the renewal operation to its end',
    async () => {
      const tick = await s.h.api('POST', '/api/v1/certificates/renewals', { due_within_days: 61 });
      const decided = tick.body.items?.[0];
      if (decided?.outcome !== 'started') throw new Error(`the schedule started nothing: ${JSON.stringify(tick.body)}`);
      const op = await until(
        'the renewal',
        async () => {
          const o = (await s.h.api('GET', `/api/v1/operations/${decided.operation_id}`)).body;
          return o.state !== 'running' ? o : undefined;
        },
        600_000,
        50,
      );
      if (op.state !== 'succeeded') throw new Error(`${op.code}: ${op.message}`);
    },
    opts,
  );

  bench(
    'the same steps by hand, member after member (baseline)',
    async () => {
      for (const h of s.hosts) await sh(h, byHand(h));
    },
    opts,
  );
});
