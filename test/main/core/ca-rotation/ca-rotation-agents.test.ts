// A manager CA rotation across real agents (issue 34): a cluster agent (on the Kubernetes API test server, under
// its own token) and two node agents run in this process against the manager's gateway on 127.0.0.1, which reloads
// its TLS at each step. The rotation completes on the manager's own schedule; commands issued before, during and
// after it are each run once; the agents end trusting the new CA alone, and the old CA's certificates are refused.
import { X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { parseAllDocuments, stringify } from 'yaml';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ClusterAgent } from '../../../../agent/agent';
import { folderCertificateStore } from '../../../../agent/certificate-files';
import { loadIdentity } from '../../../../agent/identity';
import { NodeAgent } from '../../../../agent/node/node-agent';
import { startManagerGateway } from '../../../../main/core/gateway/embedded-gateway';
import type { Gateway } from '../../../../main/core/gateway/gateway';
import { agentManifestsYaml } from '../../../../main/core/kubernetes/agent-manifests';
import { importRbacYaml } from '../../../../main/core/kubernetes/import-rbac';
import type { NodeAgentConfigBody } from '../../../../main/wire/node-agent';
import { GATEWAY_PATHS } from '../../../../main/wire/protocol';
import { until } from '../../../support/agent-harness';
import { gatewayCall, type ClientCert } from '../../../support/gateway-client';
import { kubeTarget, type KubeTarget } from '../../../support/kube-api/target';
import { testManager, type TestManager } from '../../../support/manager';
import { tempDir } from '../../../support/temp-dir';

const IMAGE = `registry.local/navin/agent@sha256:${'d'.repeat(64)}`;

let t: TestManager;
let gw: Gateway;
let kube: KubeTarget;
const dirs: { remove(): void }[] = [];
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  t = testManager();
  gw = await startManagerGateway(t.manager, { host: '127.0.0.1', port: 0, serverName: 'localhost', tlsDir: join(t.dataDir, 'tls') });
  kube = await kubeTarget();
}, 60_000);
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
  await gw?.close();
  await kube?.close();
  t?.close();
  for (const d of dirs) d.remove();
});

function identityDir(files: Record<string, string>): string {
  const dir = tempDir('navin-identity-');
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir.path, name), text, { mode: 0o600 });
  return dir.path;
}

async function clusterAgent(): Promise<{ clusterId: string; dir: string }> {
  const cluster = t.manager.clusters.create({ name: 'rotate-k8s' }, 'test');
  const files = t.manager.agentIdentities.issue(cluster.id, gw.url, 'test', 'localhost').files;
  const namespace = (JSON.parse(files['config.json']!) as { payload: { namespace: string } }).payload.namespace;
  await kube.apply(importRbacYaml(namespace, 'rotate-k8s'));
  const rbac = parseAllDocuments(agentManifestsYaml(namespace, IMAGE, cluster.id, 'rotate-k8s'))
    .map((d) => d.toJSON() as { kind: string; metadata: { name: string } })
    .filter((d) => d.kind !== 'Deployment' && !d.metadata.name.startsWith('navin-operator'));
  await kube.apply(rbac.map((d) => stringify(d)).join('---\n'));
  await kube.kubeConfig().makeApiClient(CoreV1Api).readNamespace({ name: namespace });
  const kc = kube.kubeConfig(await kube.createToken(namespace, 'navin-cluster-agent'));
  const dir = identityDir(files);
  const agent = new ClusterAgent({
    identity: loadIdentity(dir),
    kc,
    replica: 'agent-a',
    version: 'test',
    identityDir: dir,
    renewal: { store: folderCertificateStore(dir) },
  });
  await agent.start();
  stops.push(() => agent.stop());
  return { clusterId: cluster.id, dir };
}

async function nodeAgent(clusterId: string, name: string, address: string): Promise<{ hostId: string; dir: string; root: string }> {
  const hostId = t.manager.hosts.add(clusterId, { name, address }, 'test').id;
  const dir = identityDir(t.manager.hostIdentities.issue(hostId, { gateway_url: gw.url, server_name: 'localhost' }, 'test').files);
  const root = tempDir('navin-host-');
  dirs.push(root);
  mkdirSync(join(root.path, 'state'));
  const agent = new NodeAgent({
    identity: loadIdentity<NodeAgentConfigBody>(dir),
    version: 'test',
    stateDir: join(root.path, 'state'),
    prefix: root.path,
    identityDir: dir,
    renewal: { store: folderCertificateStore(dir) },
  });
  await agent.start();
  stops.push(() => agent.stop());
  return { hostId, dir, root: root.path };
}

const certOf = (dir: string): ClientCert => ({
  certPem: readFileSync(join(dir, 'tls.crt'), 'utf8'),
  keyPem: readFileSync(join(dir, 'tls.key'), 'utf8'),
  caPem: readFileSync(join(dir, 'ca.crt'), 'utf8'),
});

test('a rotation completes across a cluster agent and two node agents, every command run once, the old CA refused', async () => {
  const cluster = await clusterAgent();
  const hostsCluster = t.manager.clusters.create({ name: 'rotate-hosts', kind: 'hosts' }, 'test');
  const hosts = [await nodeAgent(hostsCluster.id, 'rot-a', '198.18.41.1'), await nodeAgent(hostsCluster.id, 'rot-b', '198.18.41.2')];
  const oldCa = t.manager.ca.issuerPem;
  const oldCerts = [certOf(cluster.dir), ...hosts.map((h) => certOf(h.dir))];

  const issued: string[] = [];
  let n = 0;
  /** One command to each agent: an inventory report, and a file written on each host. */
  const issueRound = (): void => {
    n++;
    issued.push(t.manager.commands.issue(cluster.clusterId, 'inventory.report', {}, 'test').id);
    for (const h of hosts) {
      const path = `/etc/navin/round-${n}.conf`;
      issued.push(
        t.manager.hostCommands.issuePlan(h.hostId, { tasks: [{ id: 'w', kind: 'file.write', path, content: `${n}\n` }] }, 'test').id,
      );
    }
  };
  const allDone = (): true | undefined =>
    issued.every((id) => ['succeeded', 'failed', 'rejected'].includes(t.manager.commands.get(id).state)) ? true : undefined;

  issueRound();
  await until('the commands before the rotation run', allDone, 30_000);
  const rotation = t.manager.caRotation.start('test');
  issueRound();
  await until('serving-new', () => (t.manager.caRotation.progress()!.state !== 'started' ? true : undefined), 60_000);
  issueRound();
  await until('the rotation done', () => (t.manager.caRotation.progress()!.state === 'done' ? true : undefined), 90_000);
  issueRound();
  await until('every command answered', allDone, 60_000);

  // Each command ran once: succeeded, and no agent answered one of them as a replay.
  for (const id of issued) {
    const c = t.manager.commands.get(id);
    expect({ id, state: c.state }).toEqual({ id, state: 'succeeded' });
    expect(c.receipts.every((r) => r.status === 'succeeded')).toBe(true);
  }
  for (const h of hosts)
    for (let i = 1; i <= n; i++) expect(readFileSync(join(h.root, `etc/navin/round-${i}.conf`), 'utf8')).toBe(`${i}\n`);

  const view = t.manager.caRotation.progress()!;
  expect(view).toMatchObject({ id: rotation.id, state: 'done', waiting_for: [], stages: { 'trusts-new': 3 } });
  const newCa = t.manager.ca.issuerPem;
  expect(newCa).not.toBe(oldCa);
  expect(t.manager.ca.trustedPems()).toEqual([newCa]);
  // Each agent holds a certificate of the new CA and trusts it alone, in its identity folder.
  for (const dir of [cluster.dir, ...hosts.map((h) => h.dir)]) {
    const held = certOf(dir);
    expect(new X509Certificate(held.certPem).verify(new X509Certificate(newCa).publicKey)).toBe(true);
    expect(held.caPem.trim()).toBe(newCa.trim());
  }
  // The gateway serves a certificate of the new CA, and refuses the old CA's certificates at the handshake.
  expect(
    new X509Certificate(readFileSync(join(t.dataDir, 'tls', 'gateway.crt'), 'utf8')).verify(new X509Certificate(newCa).publicKey),
  ).toBe(true);
  for (const old of oldCerts)
    await expect(gatewayCall(gw.url, 'GET', `${GATEWAY_PATHS.commands}?wait=0`, { ...old, caPem: newCa })).rejects.toThrow();
}, 240_000);
