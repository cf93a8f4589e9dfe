// A cluster agent in a pod keeps the certificate it renews in its identity Secret (issue 34): against the Kubernetes
// API test server, under the agent's own ServiceAccount token and the RBAC its manifests grant, the Lease holder
// renews, writes the new pair to the Secret and polls with it; the old serial is then refused by the gateway; a
// "restarted" agent reads the Secret as its pod would mount it and stays connected; the other replica, still on
// the old pair, takes the renewed one from the Secret once it leads. A pair in the Secret written meanwhile is
// never overwritten, and without the right to update the Secret no certificate is asked for.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { parseAllDocuments, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ClusterAgent } from '../../agent/agent';
import { CertificateRenewer } from '../../agent/certificate-renewer';
import { gatewayClient } from '../../agent/gateway-client';
import { loadIdentity } from '../../agent/identity';
import { secretCertificateStore } from '../../agent/identity-secret';
import { normalizeSerial, type Gateway } from '../../main/core/gateway/gateway';
import { agentManifestsYaml } from '../../main/core/kubernetes/agent-manifests';
import { importRbacYaml } from '../../main/core/kubernetes/import-rbac';
import { GATEWAY_PATHS } from '../../main/wire/protocol';
import { until } from '../support/agent-harness';
import { gatewayCall, type ClientCert } from '../support/gateway-client';
import { kubeTarget, type KubeTarget } from '../support/kube-api/target';
import { testManager, type TestManager } from '../support/manager';
import { tempDir } from '../support/temp-dir';
import { startTestGateway } from '../support/test-gateway';

const DAY = 86_400_000;
const IMAGE = `registry.local/navin/agent@sha256:${'c'.repeat(64)}`;
const SECRET = 'navin-cluster-agent-identity';
/** The agents' clock, 300 of the certificate's 397 days later: past two thirds of its life. */
const later = (): Date => new Date(Date.now() + 300 * DAY);

let t: TestManager;
let gw: Gateway;
const kubes: KubeTarget[] = [];
const dirs: { remove(): void }[] = [];

beforeAll(async () => {
  t = testManager();
  ({ gateway: gw } = await startTestGateway(t));
}, 60_000);
afterAll(async () => {
  await gw?.close();
  t?.close();
  for (const k of kubes) await k.close();
  for (const d of dirs) d.remove();
});

const serialOf = (certPem: string): string => normalizeSerial(new X509Certificate(certPem).serialNumber);
const revoked = (certPem: string): boolean => t.manager.tables.keys.clientCertificateBySerial(serialOf(certPem))?.revoked_at != null;

interface Enrolled {
  clusterId: string;
  files: Record<string, string>;
  /** The agent's own: its ServiceAccount's token. */
  kc: KubeConfig;
  kube: KubeTarget;
  /** The managed namespace its signed config names. */
  ns: string;
}

/**
 * A cluster on its own Kubernetes API test server: its namespace and the agent's RBAC applied as its manifests give
 * them, its identity Secret created from the identity the manager issued.
 */
async function enrolledCluster(name: string): Promise<Enrolled> {
  const kube = await kubeTarget();
  kubes.push(kube);
  const cluster = t.manager.clusters.create({ name }, 'test');
  const files = t.manager.agentIdentities.issue(cluster.id, gw.url, 'test', 'localhost').files;
  const namespace = (JSON.parse(files['config.json']!) as { payload: { namespace: string } }).payload.namespace;
  await kube.apply(importRbacYaml(namespace, name));
  // The RBAC objects only: no pod is run here, the agent runs in this process under the ServiceAccount's token.
  const rbac = parseAllDocuments(agentManifestsYaml(namespace, IMAGE, cluster.id, name))
    .map((d) => d.toJSON() as { kind: string; metadata: { name: string } })
    .filter((d) => d.kind !== 'Deployment' && !d.metadata.name.startsWith('navin-operator'));
  await kube.apply(rbac.map((d) => stringify(d)).join('---\n'));
  const data = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
  await kube
    .kubeConfig()
    .makeApiClient(CoreV1Api)
    .createNamespacedSecret({ namespace, body: { metadata: { name: SECRET, namespace }, data } });
  const kc = kube.kubeConfig(await kube.createToken(namespace, 'navin-cluster-agent'));
  return { clusterId: cluster.id, files, kc, kube, ns: namespace };
}

/** The identity folder a pod would mount from the Secret as it stands now (read as admin). */
async function mountedSecret({ kube, ns: namespace }: Enrolled): Promise<string> {
  const secret = await kube.kubeConfig().makeApiClient(CoreV1Api).readNamespacedSecret({ name: SECRET, namespace });
  const dir = tempDir('navin-mounted-');
  dirs.push(dir);
  for (const [file, b64] of Object.entries(secret.data ?? {}))
    writeFileSync(join(dir.path, file), Buffer.from(b64, 'base64'), { mode: 0o440 });
  return dir.path;
}

const clientOf = (files: Record<string, string>): ClientCert => ({
  certPem: files['tls.crt']!,
  keyPem: files['tls.key']!,
  caPem: files['ca.crt']!,
});

describe('a cluster agent whose certificate is near expiry, in a pod', () => {
  test('renews into its identity Secret, stays connected after a restart from it, and its old serial is refused', async () => {
    const e = await enrolledCluster('renew-secret-a');
    const { clusterId, files, kc, kube, ns } = e;
    const old = clientOf(files);
    const first = new ClusterAgent({
      identity: loadIdentity(await mountedSecret(e)),
      kc,
      replica: 'agent-a',
      version: 'test',
      renewal: { store: secretCertificateStore(kc, ns), now: later },
    });
    await first.start();
    let renewedPem: string;
    try {
      const store = secretCertificateStore(kube.kubeConfig(), ns);
      renewedPem = await until(
        'the renewed pair in the Secret',
        async () => {
          const kept = await store.current();
          return kept.certPem !== old.certPem ? kept.certPem : undefined;
        },
        30_000,
      );
      // The renewed certificate is used: its first request revokes the old one, refused from then on.
      await until('the old certificate revoked once the new one was seen', () => (revoked(old.certPem) ? true : undefined), 30_000);
      await expect(gatewayCall(gw.url, 'GET', `${GATEWAY_PATHS.commands}?wait=0`, old)).rejects.toThrow();
    } finally {
      await first.stop();
    }
    // The pod restarts: its mount holds the renewed pair, which is not due, and the agent runs a command with it.
    const mounted = await mountedSecret(e);
    const identity = loadIdentity(mounted);
    expect(identity.certPem).toBe(renewedPem);
    expect(new X509Certificate(identity.certPem).checkPrivateKey(createPrivateKey(identity.keyPem))).toBe(true);
    const again = new ClusterAgent({
      identity,
      kc,
      replica: 'agent-a2',
      version: 'test',
      renewal: { store: secretCertificateStore(kc, ns) },
    });
    await again.start();
    try {
      const cmd = t.manager.commands.issue(clusterId, 'inventory.report', {}, 'test');
      await until(
        'the command run after the restart',
        () => (t.manager.commands.get(cmd.id).state === 'succeeded' ? true : undefined),
        40_000,
      );
      expect(revoked(renewedPem)).toBe(false);
    } finally {
      await again.stop();
    }
  }, 120_000);

  test('the other replica, still on the old pair, takes up the renewed one from the Secret when it leads', async () => {
    const e = await enrolledCluster('renew-secret-b');
    const { files, kc, ns } = e;
    const leaderIdentity = loadIdentity(await mountedSecret(e));
    const standbyIdentity = loadIdentity(await mountedSecret(e));
    const leader = gatewayClient(leaderIdentity, 'agent-a', 'test');
    const standby = gatewayClient(standbyIdentity, 'agent-b', 'test');
    const renewer = (identity: typeof leaderIdentity, gateway: typeof leader) =>
      new CertificateRenewer({
        store: secretCertificateStore(kc, ns),
        identity,
        gateway,
        commonName: 'x',
        isActive: () => true,
        now: later,
      });
    try {
      expect(await renewer(leaderIdentity, leader).check()).toBe('renewed');
      await leader.commands(0); // the new certificate seen: the old one is revoked
      expect(revoked(files['tls.crt']!)).toBe(true);
      expect(await renewer(standbyIdentity, standby).check()).toBe('adopted');
      expect(standbyIdentity.certPem).toBe(leaderIdentity.certPem);
      expect((await standby.commands(0)).commands).toEqual([]);
    } finally {
      leader.close();
      standby.close();
    }
  }, 60_000);

  test('a pair written to the Secret meanwhile is never overwritten: the renewal fails and the next check takes that pair', async () => {
    const e = await enrolledCluster('renew-secret-c');
    const { files, kc, ns } = e;
    const identity = loadIdentity(await mountedSecret(e));
    const client = gatewayClient(identity, 'agent-a', 'test');
    const store = secretCertificateStore(kc, ns);
    // Another replica's renewal lands between this one's CSR and its write.
    const other = loadIdentity(await mountedSecret(e));
    const otherClient = gatewayClient(other, 'agent-b', 'test');
    const racing = {
      renewCertificate: async (csr: string) => {
        const answer = await client.renewCertificate(csr);
        await new CertificateRenewer({
          store,
          identity: other,
          gateway: otherClient,
          commonName: 'x',
          isActive: () => true,
          now: later,
        }).check();
        return answer;
      },
      useCertificate: client.useCertificate,
    };
    try {
      const renewer = new CertificateRenewer({ store, identity, gateway: racing, commonName: 'x', isActive: () => true, now: later });
      expect(await renewer.check()).toBe('failed');
      expect(identity.certPem).toBe(files['tls.crt']);
      expect((await store.current()).certPem).toBe(other.certPem);
      expect(await renewer.check()).toBe('adopted');
      expect(identity.certPem).toBe(other.certPem);
      expect((await client.commands(0)).commands).toEqual([]);
    } finally {
      client.close();
      otherClient.close();
    }
  }, 60_000);

  test('without the right to update its Secret the agent asks for no certificate and keeps its pair', async () => {
    const e = await enrolledCluster('renew-secret-d');
    const { files, kube, ns } = e;
    // The import identity has no Secret right at all.
    const importKc = kube.kubeConfig(await kube.createToken(ns, 'navin-import'));
    const identity = loadIdentity(await mountedSecret(e));
    const client = gatewayClient(identity, 'agent-a', 'test');
    const issuedBefore = t.manager.tables.keys.certificates().length;
    try {
      const renewer = new CertificateRenewer({
        store: secretCertificateStore(importKc, ns),
        identity,
        gateway: client,
        commonName: 'x',
        isActive: () => true,
        now: later,
      });
      expect(await renewer.check()).toBe('failed');
      expect(t.manager.tables.keys.certificates().length).toBe(issuedBefore);
      expect(identity.certPem).toBe(files['tls.crt']);
    } finally {
      client.close();
    }
  }, 60_000);
});
