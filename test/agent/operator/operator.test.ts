// The operator as a real process against the Kubernetes API test server (or KUBECONFIG's cluster): the objects it
// makes for etcd, NATS and node exporter, read back with the real kubectl, and a tampered spec it refuses.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiextensionsV1Api, CoreV1Api, CustomObjectsApi, NetworkingV1Api } from '@kubernetes/client-node';
import { createSigner, signDocument } from '../../../main/wire/envelope';
import { nodeEd25519 } from '../../../main/wire/ed25519-node';
import { toBase64url } from '../../../main/wire/encoding';
import { publicKeyToPem } from '../../../main/wire/public-key-pem';
import { operatorObjects } from '../../../main/core/kubernetes/operator-manifests';
import { yamlDocuments } from '../../../main/core/kubernetes/yaml-documents';
import { HTTPROUTE_CRD } from '../../support/kube-api/gateway-api-crd';
import { kubeTarget, type KubeTarget } from '../../support/kube-api/target';
import { kubectl, kubectlAvailable } from '../../support/kube-api/test-helpers';
import { describeNeeding } from '../../support/needs';
import { logCollector, type AgentLogs } from '../../support/agent-logs';
import { until } from '../../support/agent-harness';
import { tempDir } from '../../support/temp-dir';

const OPERATOR = fileURLToPath(new URL('../../../out/agent/navin-operator.cjs', import.meta.url));
const CRD = readFileSync(fileURLToPath(new URL('../../../resources/kubernetes/managedcomponent-crd.yaml', import.meta.url)), 'utf8');
const NS = 'navin-op-it';
const digest = (c: string) => `mirror.local/navin/${c}@sha256:${c.charCodeAt(0).toString(16).padStart(2, '0').repeat(32)}`;
const SPECS = {
  etcd: {
    component: 'etcd',
    version: '3.5.16',
    replicas: 3,
    artifacts: [{ name: 'etcd', image: digest('etcd') }],
    config: { canary_partition: 2 },
  },
  nats: { component: 'nats', version: '2.10.22', replicas: 3, artifacts: [{ name: 'nats', image: digest('nats') }] },
  opa: {
    component: 'opa',
    version: '1.4.2',
    artifacts: [{ name: 'opa', image: digest('opa') }],
    config: {
      routes: [
        { site: 'plain', host: 'opa.plain.example', tls: 'none' },
        { site: 'issued', host: 'opa.issued.example', tls: 'cert-manager', issuer: 'internal-ca' },
        { site: 'own', host: 'opa.own.example', tls: 'secret' },
        { site: 'gw', host: 'opa.gw.example', tls: 'gateway', gateway: { name: 'edge', namespace: 'gateways' } },
      ],
    },
  },
  'node-exporter': { component: 'node-exporter', version: '1.5.0', artifacts: [{ name: 'node-exporter', image: digest('node') }] },
};

describeNeeding('the operator turns signed ManagedComponents into workloads', [kubectlAvailable()], () => {
  let kube: KubeTarget;
  let dir: ReturnType<typeof tempDir>;
  let kubeconfig: string;
  let child: ChildProcess;
  let logs: AgentLogs;
  // kubectl keeps its discovery cache under the suite's own folder, never in the checkout.
  const run = (...args: string[]) =>
    kubectl([...args, '--kubeconfig', kubeconfig, '--cache-dir', join(dir.path, 'cache')], { HOME: dir.path });
  const k = async (...args: string[]) => {
    const r = await run(...args);
    if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const getJson = async (kind: string, name: string) => JSON.parse(await k('-n', NS, 'get', kind, name, '-o', 'json'));

  beforeAll(async () => {
    kube = await kubeTarget();
    dir = tempDir('navin-operator-');
    kubeconfig = join(dir.path, 'kubeconfig');
    writeFileSync(kubeconfig, kube.adminKubeconfig);
    const admin = kube.kubeConfig();
    await kube.apply(`${CRD}\n---\n${HTTPROUTE_CRD}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: ${NS}}\n`);
    const signer = createSigner(nodeEd25519, randomBytes(32));
    const common = { target: 'urn:navin:cluster:c1', tenant: 't1' };
    const config = signDocument(
      {
        type: 'agent-config',
        cluster_id: 'c1',
        ...common,
        namespace: NS,
        gateway_url: 'https://manager.invalid:8462',
        server_name: 'manager',
        trusted_key_ids: [signer.keyId],
        trusted_keys: { [signer.keyId]: toBase64url(signer.publicKey) },
        client_certificate_serial: '01',
        issued_at: new Date().toISOString(),
        offline_after_s: 60,
        redelivery_s: 15,
        long_poll_s: 30,
        clock_skew_s: 30,
        lease_duration_s: 15,
      } as never,
      signer,
    );
    const desired = signDocument(
      {
        type: 'desired-state',
        ...common,
        namespace: NS,
        generation: 1,
        components: { ...SPECS, tampered: SPECS.nats },
        issued_at: new Date().toISOString(),
      } as never,
      signer,
    );
    const core = admin.makeApiClient(CoreV1Api);
    // What the kubelet mounts of the identity Secret in the pod: its two public files, nothing else.
    const identityDir = join(dir.path, 'identity');
    mkdirSync(identityDir);
    writeFileSync(join(identityDir, 'manager.pem'), publicKeyToPem(signer.publicKey));
    writeFileSync(join(identityDir, 'config.json'), JSON.stringify(config));
    await core.createNamespacedConfigMap({
      namespace: NS,
      body: { metadata: { name: 'navin-cluster-agent-state' }, data: { 'state.json': JSON.stringify({ desired_state: desired }) } },
    });
    const custom = admin.makeApiClient(CustomObjectsApi);
    const specs = { ...SPECS, tampered: { ...SPECS.nats, artifacts: [{ name: 'nats', image: digest('evil') }] } };
    for (const [name, spec] of Object.entries(specs))
      await custom.createNamespacedCustomObject({
        group: 'platform.navin.ai',
        version: 'v1alpha1',
        namespace: NS,
        plural: 'managedcomponents',
        body: { apiVersion: 'platform.navin.ai/v1alpha1', kind: 'ManagedComponent', metadata: { name }, spec },
      });
    // The operator runs as its own ServiceAccount, with the RBAC the manifests route serves: what it made below
    // it made with no more rights than those.
    await kube.apply(yamlDocuments(operatorObjects(NS, digest('operator')), 'operator'));
    const operatorKubeconfig = join(dir.path, 'operator.kubeconfig');
    writeFileSync(operatorKubeconfig, kube.kubeconfigFor(await kube.createToken(NS, 'navin-operator')));
    child = spawn(process.execPath, [OPERATOR, '--kubeconfig', operatorKubeconfig, '--namespace', NS, '--identity-dir', identityDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    logs = logCollector('operator', child.stdout!);
  }, 60_000);

  afterAll(async () => {
    child?.kill('SIGTERM');
    await run('delete', 'namespace', NS, '--wait=false').catch(() => undefined);
    await kube?.close();
    dir?.remove();
  });

  test('logs one PREFLIGHT line for each thing it cannot fix that is missing, and none for the manager key it has', async () => {
    const admin = kube.kubeConfig();
    const classes = (await admin.makeApiClient(NetworkingV1Api).listIngressClass()).items.length;
    const certManager = await admin
      .makeApiClient(ApiextensionsV1Api)
      .readCustomResourceDefinition({ name: 'certificates.cert-manager.io' })
      .then(() => true)
      .catch(() => false);
    await logs.waitFor('operator.applied');
    const checks = logs
      .logs()
      .filter((l) => l.event === 'PREFLIGHT')
      .map((l) => l.check);
    expect(checks).toEqual([...(classes === 0 ? ['ingress_class'] : []), ...(certManager ? [] : ['cert_manager'])]);
  });

  test('etcd and NATS become StatefulSets by digest with a headless Service, owner references and labels; etcd keeps a canary partition', async () => {
    for (const name of ['etcd', 'nats'] as const) {
      const mc = await until(`${name} applied`, async () => {
        const o = await getJson('managedcomponent', name);
        return o.status?.phase === 'Applied' ? o : undefined;
      });
      const sts = await getJson('statefulset', name);
      expect(sts.spec.template.spec.containers[0].image).toBe(SPECS[name].artifacts[0]!.image);
      expect(sts.spec.replicas).toBe(3);
      expect(sts.spec.serviceName).toBe(name);
      expect(sts.spec.updateStrategy.rollingUpdate.partition).toBe(name === 'etcd' ? 2 : 0);
      expect(sts.metadata.ownerReferences).toEqual([
        expect.objectContaining({ kind: 'ManagedComponent', name, uid: mc.metadata.uid, controller: true }),
      ]);
      expect(sts.metadata.labels).toMatchObject({ 'app.kubernetes.io/name': name, 'app.kubernetes.io/managed-by': 'navin-operator' });
      const svc = await getJson('service', name);
      expect(svc.spec.clusterIP).toBe('None');
      expect(svc.metadata.ownerReferences[0].uid).toBe(mc.metadata.uid);
      const cm = await getJson('configmap', `${name}-config`);
      expect(JSON.parse(cm.data['config.json'])).toEqual((SPECS[name] as { config?: unknown }).config ?? {});
    }
    const natsPorts = (await getJson('service', 'nats')).spec.ports.map((p: { port: number }) => p.port);
    expect(natsPorts).toEqual([4222, 6222, 8222]);
  });

  test('node exporter becomes a Deployment with a Service, and its NetworkPolicy lets in only its namespace and ingress-nginx', async () => {
    await until('node-exporter deployment', () => getJson('deployment', 'node-exporter').catch(() => undefined));
    const d = await getJson('deployment', 'node-exporter');
    expect(d.spec.template.spec.containers[0].image).toBe(SPECS['node-exporter'].artifacts[0]!.image);
    expect(d.spec.template.spec.containers[0].envFrom).toEqual([{ secretRef: { name: 'node-exporter-env', optional: true } }]);
    expect((await getJson('service', 'node-exporter')).spec.ports[0].port).toBe(9100);
    const np = await getJson('networkpolicy', 'node-exporter-same-namespace');
    expect(np.spec.ingress).toEqual([
      { from: [{ podSelector: {} }, { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }] },
    ]);
  });

  test('a ManagedComponent whose spec is not the signed one is not acted on, and its status says so', async () => {
    const mc = await until('tampered refused', async () => {
      const o = await getJson('managedcomponent', 'tampered');
      return o.status?.conditions ? o : undefined;
    });
    expect(mc.status.conditions[0]).toMatchObject({ type: 'Verified', status: 'False', reason: 'SpecNotSigned' });
    const r = await run('-n', NS, 'get', 'statefulset', 'tampered');
    expect(r.code).not.toBe(0);
  });

  test("each TLS mode routes or says why not: none, gateway and the owner's certificate routed (its Secret unread), cert-manager pending its certificate", async () => {
    const routes = async () =>
      (await getJson('managedcomponent', 'opa')).status?.routes as { site: string; routed: boolean; reason: string }[] | undefined;
    const first = await until('opa routes', async () => ((await routes())?.length === 4 ? routes() : undefined));
    expect(first!.map((r) => [r.site, r.routed, r.reason])).toEqual([
      ['plain', true, 'Routed'],
      ['issued', false, 'CertManagerMissing'],
      ['own', true, 'Routed'],
      ['gw', true, 'Routed'],
    ]);
    const plain = await getJson('ingress', 'navin-route-plain');
    expect(plain.spec.tls).toBeUndefined();
    expect(plain.spec.rules[0]).toMatchObject({ host: 'opa.plain.example' });
    expect(plain.spec.rules[0].http.paths[0].backend.service).toEqual({ name: 'opa', port: { number: 8181 } });
    expect(plain.metadata.ownerReferences[0]).toMatchObject({ kind: 'ManagedComponent', name: 'opa' });
    const issued = await getJson('ingress', 'navin-route-issued');
    expect(issued.metadata.annotations['cert-manager.io/issuer']).toBe('internal-ca');
    expect(issued.spec.tls).toEqual([{ hosts: ['opa.issued.example'], secretName: 'navin-tls-issued' }]);
    // No Secret navin-tls-own exists, and the operator could not have looked: the Ingress names it all the same.
    expect((await run('-n', NS, 'get', 'secret', 'navin-tls-own')).code).not.toBe(0);
    expect((await getJson('ingress', 'navin-route-own')).spec.tls).toEqual([{ hosts: ['opa.own.example'], secretName: 'navin-tls-own' }]);
    const gw = await getJson('httproute', 'navin-route-gw');
    expect(gw.spec).toEqual({
      parentRefs: [{ name: 'edge', namespace: 'gateways' }],
      hostnames: ['opa.gw.example'],
      rules: [{ backendRefs: [{ name: 'opa', port: 8181 }] }],
    });
    expect((await getJson('managedcomponent', 'opa')).status.routed).toBe('3/4');
  });

  test('kubectl get managedcomponents shows service, version, ready and routed', async () => {
    const out = await k('-n', NS, 'get', 'managedcomponents');
    const [head, ...rows] = out.trim().split('\n');
    expect(head!.split(/\s+/)).toEqual(['NAME', 'SERVICE', 'VERSION', 'READY', 'ROUTED', 'AGE']);
    expect(
      rows
        .find((r) => r.startsWith('etcd '))!
        .split(/\s+/)
        .slice(0, 5),
    ).toEqual(['etcd', 'etcd', '3.5.16', '0/3', '-']);
  });

  test('a deleted ManagedComponent goes in order: its workload, then its routes, NetworkPolicy, Service and ConfigMap, then itself', async () => {
    expect((await getJson('managedcomponent', 'opa')).metadata.finalizers).toEqual(['platform.navin.ai/operator']);
    await k('-n', NS, 'delete', 'managedcomponent', 'opa', '--wait=false');
    await logs.waitFor('operator.released', (l) => l.component === 'opa', 15_000);
    const deleted = logs
      .logs()
      .filter((l) => l.event === 'operator.deleted')
      .map((l) => `${l.kind}/${l.name}`);
    expect(deleted).toEqual([
      'Deployment/opa',
      'Ingress/navin-route-issued',
      'Ingress/navin-route-own',
      'Ingress/navin-route-plain',
      'HTTPRoute/navin-route-gw',
      'NetworkPolicy/opa-same-namespace',
      'Service/opa',
      'ConfigMap/opa-config',
    ]);
    await until('opa gone', async () => ((await run('-n', NS, 'get', 'managedcomponent', 'opa')).code !== 0 ? true : undefined));
  });
});
