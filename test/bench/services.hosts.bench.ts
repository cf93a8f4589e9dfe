// An install plan of the node exporter on a booted host, through the console API (signed plans: fetch from the
// mirror and re-hash, config and unit, daemon-reload, enable, restart, liveness, readiness, functional test), beside
// the same steps run by hand inside the host in the same run: the blob downloaded from the same registry and
// hashed, the same files written, systemctl daemon-reload/enable/restart, then one GET /metrics. Each cycle also
// uninstalls (by the console, and by hand), so the next one starts from a clean host.
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { loadBuiltinCatalog } from '../../main/core/catalog/catalog-builtin';
import { operationPhases } from '../../main/core/services/service-plan';
import { operate as operateOn, serviceHosts, sh, type ServiceHosts } from '../support/service-hosts';

const VERSION = '1.5.0-1';
const catalog = (() => {
  const l = loadBuiltinCatalog();
  if (!l.ok) throw new Error('the built-in catalog is invalid');
  return l.catalog;
})();

let s: ServiceHosts;
let byHand = '';

beforeAll(async () => {
  s = await serviceHosts([1], [['node-exporter', VERSION]]);
  const host = s.hosts[0]!;
  // The very files the plan writes, so both sides do the same work.
  const [phase] = operationPhases('install', {
    catalog,
    clusterId: s.clusters[0]!,
    service: 'node-exporter',
    version: VERSION,
    hosts: [{ id: 'x', name: host.name, address: host.address, architecture: 'amd64' }],
    settings: {},
    mirror: { url: s.registry.url, ca_pem: s.registry.caPem },
  });
  const tasks = phase!.plans[0]!.args.tasks;
  const fetch = tasks.find((t) => t.kind === 'artifact.fetch') as { url: string; path: string; digest: string };
  const files = tasks.filter((t) => t.kind === 'file.write') as { path: string; content: string }[];
  const unit = tasks.find((t) => t.kind === 'unit.write') as { unit: string; content: string };
  await sh(host, `mkdir -p /root/bench && cat > /root/bench/ca.pem`, s.registry.caPem);
  const writes = [
    ...files.map((f) => ({ path: f.path, content: f.content })),
    { path: `/etc/systemd/system/${unit.unit}`, content: unit.content },
  ];
  for (const [i, w] of writes.entries()) await sh(host, `cat > /root/bench/file-${i}`, w.content);
  const node = '/usr/lib/navin-node-agent/node';
  byHand = [
    `NODE_EXTRA_CA_CERTS=/root/bench/ca.pem ${node} -e 'fetch(process.argv[1]).then(r=>r.arrayBuffer()).then(b=>require("fs").writeFileSync(process.argv[2],Buffer.from(b)))' ${fetch.url} /root/bench/blob`,
    `test "sha256:$(sha256sum /root/bench/blob | cut -d' ' -f1)" = ${fetch.digest}`,
    `install -D -m 0755 /root/bench/blob ${fetch.path}`,
    ...writes.map((w, i) => `install -D -m 0644 /root/bench/file-${i} ${w.path}`),
    'systemctl daemon-reload',
    `systemctl enable ${unit.unit} 2>/dev/null`,
    `systemctl restart ${unit.unit}`,
    `for i in $(seq 100); do ${node} -e 'fetch(process.argv[1]).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))' http://${host.address}:9100/metrics && break; sleep 0.05; done`,
    `systemctl stop ${unit.unit}`,
    `systemctl disable ${unit.unit} 2>/dev/null`,
    `rm -f /etc/systemd/system/${unit.unit} ${writes.map((w) => w.path).join(' ')} ${fetch.path}`,
    'systemctl daemon-reload',
  ].join(' && ');
}, 600_000);

afterAll(async () => {
  await s?.close();
}, 180_000);

const opts = { iterations: 5, warmupIterations: 1, time: 0 };

async function operate(method: 'POST', path: string, body: unknown): Promise<void> {
  const op = await operateOn(s.h, method, path, body);
  if (op.state !== 'succeeded') throw new Error(`${op.code}: ${op.message}`);
}

describe('install plan vs the same steps by hand', () => {
  bench(
    'install plan through the console, then uninstall',
    async () => {
      const cluster = s.clusters[0]!;
      await operate('POST', `/api/v1/clusters/${cluster}/services`, {
        service: 'node-exporter',
        version: VERSION,
        hosts: [s.hosts[0]!.name],
      });
      await operate('POST', `/api/v1/clusters/${cluster}/services/node-exporter/actions`, { action: 'uninstall' });
    },
    opts,
  );

  bench(
    'the same steps by hand inside the host (baseline)',
    async () => {
      await sh(s.hosts[0]!, byHand);
    },
    opts,
  );
});
