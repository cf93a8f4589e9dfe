// A signed write command's round trip through each agent, side by side in one run, on one manager and gateway:
// signed and queued → long poll delivers → the agent verifies, claims the nonce in its durable state, does the
// work, stores the receipt → receipt recorded by the manager. The cluster agent applies a ManagedComponent
// (Kubernetes API test server, state in a ConfigMap); the node agent runs a one-task plan writing a file (state
// in its file, written atomically with fsync before and after the task).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { startGateway, type Gateway } from '../../main/core/gateway/gateway';
import { serverTls } from '../../main/core/keys/server-tls';
import { importRbacYaml } from '../../main/core/kubernetes/import-rbac';
import { agentManifestsYaml } from '../../main/core/kubernetes/agent-manifests';
import { AGENT, NS, until } from '../support/agent-harness';
import { kubeTarget, type KubeTarget } from '../support/kube-api/target';
import { testManager, type TestManager } from '../support/manager';
import { NODE_AGENT, logCollector } from '../support/node-agent-harness';
import { tempDir } from '../support/temp-dir';

const IMAGE = `registry.local/navin/agent@sha256:${'e'.repeat(64)}`;
let t: TestManager;
let gw: Gateway;
let kube: KubeTarget;
let dir: { path: string; remove(): void };
const children: ChildProcess[] = [];
let clusterId = '';
let hostId = '';
let n = 0;

/** Resolves when the manager records the final receipt of a command. */
function completed(id: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`command ${id} not completed`)), 30_000);
    const check = (): void => {
      const state = t.manager.tables.commands.get(id)?.state;
      if (state === 'succeeded') {
        clearTimeout(timer);
        off();
        resolve();
      } else if (state === 'failed' || state === 'rejected') {
        clearTimeout(timer);
        off();
        reject(new Error(`command ${id} ${state}: ${t.manager.tables.commands.get(id)?.code}`));
      }
    };
    const off = t.manager.events.subscribe((e) => {
      if (e.type === 'command.changed') check();
    });
    check();
  });
}

function writeIdentity(path: string, files: Record<string, string>): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  for (const [f, text] of Object.entries(files)) writeFileSync(join(path, f), text, { mode: 0o600 });
}

beforeAll(async () => {
  t = testManager();
  dir = tempDir('navin-bench-agents-');
  const tls = serverTls(t.manager.ca, t.manager.protector, t.manager.clock, 'gateway', join(t.dataDir, 'tls'), ['localhost']);
  gw = await startGateway({
    store: t.manager.store,
    tables: t.manager.tables,
    commands: t.manager.commands,
    hosts: t.manager.hostCommands,
    events: t.manager.events,
    clock: t.manager.clock,
    caPem: tls.caPem,
    certPem: tls.certPem,
    keyPem: tls.keyPem,
    host: '127.0.0.1',
    port: 0,
    // What is measured is the gateway's own cost per request, not the rate limit of one agent.
    agentRateLimit: { burst: 1e9, perMinute: 1e9 },
  });
  const gatewayUrl = `https://127.0.0.1:${gw.port}`;

  // The cluster agent, one replica, against the Kubernetes API test server.
  kube = await kubeTarget();
  await kube.apply(importRbacYaml(NS, 'bench'));
  const cluster = t.manager.clusters.create({ name: 'bench-kube' }, 'bench');
  clusterId = cluster.id;
  const identity = t.manager.agentIdentities.issue(clusterId, gatewayUrl, 'bench', 'localhost');
  writeIdentity(join(dir.path, 'cluster-identity'), identity.files);
  await kube.apply(agentManifestsYaml(NS, IMAGE, clusterId, cluster.name));
  const kubeconfig = join(dir.path, 'agent.kubeconfig');
  writeFileSync(kubeconfig, kube.kubeconfigFor(await kube.createToken(NS, 'navin-cluster-agent')), { mode: 0o600 });
  const clusterAgent = spawn(
    process.execPath,
    [AGENT, '--identity-dir', join(dir.path, 'cluster-identity'), '--kubeconfig', kubeconfig, '--replica', 'bench-a'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(clusterAgent);
  const clusterLogs = logCollector('cluster agent', clusterAgent.stdout!);

  // The node agent, its "/" a temp folder.
  const hosts = t.manager.clusters.create({ name: 'bench-hosts', kind: 'hosts' }, 'bench');
  hostId = t.manager.hosts.add(hosts.id, { name: 'bench-host', address: '127.0.0.1' }, 'bench').id;
  const hostIdentity = t.manager.hostIdentities.issue(hostId, { gateway_url: gatewayUrl, server_name: 'localhost' }, 'bench');
  writeIdentity(join(dir.path, 'host-identity'), hostIdentity.files);
  mkdirSync(join(dir.path, 'root'));
  const nodeAgent = spawn(
    process.execPath,
    [
      NODE_AGENT,
      '--identity-dir',
      join(dir.path, 'host-identity'),
      '--state-dir',
      join(dir.path, 'state'),
      '--prefix',
      join(dir.path, 'root'),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(nodeAgent);
  await clusterLogs.waitFor('leader.acquired', undefined, 30_000);
  await until('both agents polling', () => gw.heldPolls() >= 2 || undefined, 30_000, 50);
  // One of each first: connections are open and every cache is warm before the measured runs.
  await completed(t.manager.commands.issue(clusterId, 'managedcomponent.apply', { name: 'bench', spec: spec() }, 'bench').id);
  await completed(t.manager.hostCommands.issuePlan(hostId, plan(), 'bench').id);
}, 120_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await gw?.close();
  await kube?.close();
  t?.close();
  dir?.remove();
});

function spec(): Record<string, unknown> {
  return { component: 'opa', version: '1.4.2', replicas: 1 + (n++ % 2) };
}

function plan(): Record<string, unknown> {
  return { tasks: [{ id: 'write', kind: 'file.write', path: '/etc/navin/bench/app.conf', content: `run=${n++}\n` }] };
}

describe('a signed write command, issue → receipt recorded', () => {
  bench(
    'cluster agent: managedcomponent.apply (ConfigMap state, ManagedComponent written)',
    async () => {
      await completed(t.manager.commands.issue(clusterId, 'managedcomponent.apply', { name: 'bench', spec: spec() }, 'bench').id);
    },
    { time: 5_000, iterations: 20 },
  );
  bench(
    'node agent: plan.execute with one file.write (state file fsynced, file written atomically)',
    async () => {
      await completed(t.manager.hostCommands.issuePlan(hostId, plan(), 'bench').id);
    },
    { time: 5_000, iterations: 20 },
  );
});
