// An acceptance run against a cluster whose agent is connected over mTLS, whose component really exists in
// the Kubernetes API (test server, RBAC from the manager's own YAML) and whose images are in a real registry:
// every line that can run passes, with the values it observed; the report is stored, audited and announced.
import { VERSION } from '../../../../main/core/version';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { stringify } from 'yaml';
import type { Gateway } from '../../../../main/core/gateway/gateway';
import { importRbacYaml } from '../../../../main/core/kubernetes/import-rbac';
import type { ReportLine } from '../../../../main/contract/check-types';
import type { SignedReport } from '../../../../main/contract/report-types';
import type { CoreEvent } from '../../../../main/core/events';
import type { Credentials } from '../../../../main/core/http/router';
import { kubeTarget, type KubeTarget } from '../../../support/kube-api/target';
import { testManager, type TestManager } from '../../../support/manager';
import { startTestGateway } from '../../../support/test-gateway';
import { gatewayCall, type ClientCert } from '../../../support/gateway-client';
import { pushTestImage, registryAvailable, startRegistry, type TestRegistry } from '../../../support/registry';
import { describeNeeding } from '../../../support/needs';

const NS = 'navin-platform';
const specOf = (digest: string) => ({
  component: 'opa',
  version: '0.68.0',
  replicas: 2,
  artifacts: [{ name: 'opa', image: `registry.internal/navin/opa@${digest}` }],
  resources: { cpu: '250m', memory: '256Mi' },
  config: { decision_logs: true, bundles: { authz: { resource: 'bundles/authz.tar.gz' } } },
});

describeNeeding('acceptance of a connected cluster', [registryAvailable()], () => {
  /** The image's index digest, known once it is pushed to the registry. */
  let DIGEST: string;
  let SPEC: ReturnType<typeof specOf>;
  let target: KubeTarget;
  let t: TestManager;
  let gw: Gateway;
  let registry: TestRegistry;
  let op: Credentials;
  let clusterId: string;
  let serial: string;
  let cert: ClientCert;
  const events: CoreEvent[] = [];
  let report: SignedReport;
  const line = (id: string): ReportLine => {
    const l = report.payload.lines.find((x) => x.id === id);
    if (!l) throw new Error(`no line ${id} in ${report.payload.lines.map((x) => x.id).join(', ')}`);
    return l;
  };

  beforeAll(async () => {
    [target, registry] = await Promise.all([kubeTarget(), startRegistry()]);
    DIGEST = await pushTestImage(registry, 'navin/opa');
    SPEC = specOf(DIGEST);
    await target.apply(importRbacYaml(NS, 'edge'));
    t = testManager();
    op = await t.login('olga', 'operator');
    const admin = await t.login('ada', 'admin');
    clusterId = t.manager.clusters.create({ name: 'edge' }, 'test').id;
    await t.manager.registration.register(clusterId, target.kubeconfigFor(await target.createToken(NS, 'navin-import')), NS, 'test');

    gw = (await startTestGateway(t)).gateway;
    t.manager.listeners.gateway = { host: '127.0.0.1', port: gw.port, serverName: 'localhost' };
    const identity = t.manager.agentIdentities.issue(clusterId, gw.url, 'test');
    serial = identity.serial;
    cert = { certPem: identity.files['tls.crt'], keyPem: identity.files['tls.key'], caPem: identity.files['ca.crt'] };

    expect((await t.call('PUT', '/api/v1/settings/mirror', { url: registry.url, ca_pem: registry.caPem }, admin)).status).toBe(200);
    // The desired state, through the signed command path; then the component as the agent would have made it,
    // written by the cluster admin with its members in another order.
    t.manager.commands.issue(clusterId, 'managedcomponent.apply', { name: 'opa', spec: SPEC }, 'test');
    const reordered = {
      config: { bundles: { authz: { resource: 'bundles/authz.tar.gz' } }, decision_logs: true },
      resources: { memory: '256Mi', cpu: '250m' },
      artifacts: SPEC.artifacts,
      replicas: 2,
      version: '0.68.0',
      component: 'opa',
    };
    await target.apply(
      stringify({
        apiVersion: 'platform.navin.ai/v1alpha1',
        kind: 'ManagedComponent',
        metadata: { name: 'opa', namespace: NS },
        spec: reordered,
      }),
    );
    // The agent's long poll over mTLS with the cluster's client certificate: the gateway records it.
    expect((await gatewayCall(gw.url, 'GET', '/v1/cluster-agent/commands?wait=0', cert)).status).toBe(200);

    t.manager.events.subscribe((e) => events.push(e));
    const res = await t.call('POST', `/api/v1/clusters/${clusterId}/acceptance`, undefined, op);
    expect(res.status).toBe(201);
    report = res.body as SignedReport;
  });
  afterAll(async () => {
    await gw?.close();
    await registry?.stop();
    t?.close();
    await target?.close();
  });

  test('agent.mtls passes with the gateway record and a handshake refused without a client certificate', () => {
    const l = line('agent.mtls');
    expect(l.status).toBe('PASS');
    const e = l.evidence as any;
    expect(e.gateway_record).toMatchObject({
      certificate_serial: serial,
      leader_replica: 'test-replica',
      agent_version: VERSION,
      connected_window_s: 45,
    });
    expect(e.gateway_record.age_s).toBeLessThan(45);
    expect(e.gateway_tls.tls_version).toMatch(/^TLSv1\.[23]$/);
    expect(e.gateway_tls.server_certificate_trusted).toBe(true);
    expect(e.gateway_tls.server_certificate.subject).toContain('CN=localhost');
    expect(Date.parse(e.gateway_tls.server_certificate.valid_to)).toBeGreaterThan(Date.now());
    expect(e.probes.map((p: any) => [p.client_certificate, p.request_answered])).toEqual([
      ['none', false],
      ['foreign-ca', false],
    ]);
    for (const p of e.probes) expect(p.refusal).toBeTruthy();
    expect(e.method).toContain(`127.0.0.1:${gw.port}`);
  });

  test('agent.config passes: the presented serial is the latest unrevoked one and the config key is trusted', () => {
    const l = line('agent.config');
    expect(l.status).toBe('PASS');
    expect(l.evidence).toMatchObject({
      presented_serial: serial,
      latest_client_certificate: { serial, revoked_at: null },
      config_signing_key: { key_id: t.manager.keyring.active().keyId, trusted_now: true },
      active_signing_key: { listed_in_agent_config: true },
    });
  });

  test('inventory.fresh passes with the snapshot the import identity took', () => {
    const l = line('inventory.fresh');
    expect(l.status).toBe('PASS');
    expect(l.evidence).toMatchObject({ source: 'import', node_count: 3 });
    expect((l.evidence as any).kubernetes_version).toMatch(/^v1\.\d+/);
  });

  test('component.opa passes: the ManagedComponent read now from the cluster has the desired spec', () => {
    const l = line('component.opa');
    expect(l.status).toBe('PASS');
    expect(l.evidence).toMatchObject({ desired_spec: SPEC, observed_spec: SPEC, namespace: NS });
    expect((l.evidence as any).observed_spec).toEqual(SPEC);
    expect(l.evidence.method).toMatch(
      /^GET https:\/\/.+\/apis\/platform\.navin\.ai\/v1alpha1\/namespaces\/navin-platform\/managedcomponents\/opa as navin-import$/,
    );
    expect((l.evidence as any).resource_version).toBeTruthy();
  });

  test('install.offline_source.opa passes: a real HEAD for the digest answered 200 in the mirror', async () => {
    const l = line('install.offline_source.opa');
    expect(l.status).toBe('PASS');
    expect(l.evidence).toMatchObject({ mirror_url: registry.url, digests: [DIGEST], mirror_ca: 'configured CA' });
    expect((l.evidence as any).lookups[0]).toMatchObject({
      name: 'opa',
      image: SPEC.artifacts[0]!.image,
      request: `HEAD ${registry.url}/v2/navin/opa/manifests/${DIGEST}`,
      http_status: 200,
      content_digest: DIGEST,
      found: true,
    });
    await registry.waitForRequest((r) => r.method === 'HEAD' && r.path === `/v2/navin/opa/manifests/${DIGEST}` && r.status === 200);
  });

  test('functional.opa is BLOCKED with its reason, so the verdict is BLOCKED, not PASS', () => {
    const l = line('functional.opa');
    expect(l.status).toBe('BLOCKED');
    expect((l.evidence.reason as any).en).toMatch(/no functional test is declared/);
    // The preflight opens the report; on this cluster none of its checks fails.
    expect(report.payload.lines.filter((l) => l.status === 'FAIL').map((l) => l.id)).toEqual([]);
    expect(report.payload.verdict).toBe('BLOCKED');
    expect(report.payload.lines.map((x) => x.id).filter((id) => id.startsWith('preflight.'))).toEqual(
      expect.arrayContaining([
        'preflight.kubernetes.api',
        'preflight.capacity',
        'preflight.dns.forward',
        'preflight.tls.console_ca',
        'preflight.mirror.artifacts.opa',
        'preflight.profile.catalog_valid',
      ]),
    );
    expect(report.payload.lines.map((x) => x.id).filter((id) => !id.startsWith('preflight.'))).toEqual([
      'agent.mtls',
      'agent.config',
      'inventory.fresh',
      'component.opa',
      'install.offline_source.opa',
      'functional.opa',
    ]);
    for (const x of report.payload.lines) {
      expect(x.title.en && x.title.fr).toBeTruthy();
      expect(Date.parse(x.ran_at)).not.toBeNaN();
      expect(Date.parse(x.evidence.at)).not.toBeNaN();
    }
  });

  test('the report is stored as signed, listed, audited in the same run and announced', async () => {
    const p = report.payload;
    expect(p).toMatchObject({
      type: 'report',
      v: 1,
      cluster_id: clusterId,
      cluster_name: 'edge',
      tenant: 'default',
      created_by: 'olga',
      key_id: t.manager.keyring.active().keyId,
    });
    expect(p.key_fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(p.key_fingerprint.slice(0, 16)).toBe(p.key_id);
    const stored = await t.call('GET', `/api/v1/reports/${p.report_id}`, undefined, op);
    expect(stored.body).toEqual(report);
    const list = await t.call('GET', `/api/v1/reports?cluster_id=${clusterId}`, undefined, op);
    expect((list.body as any).items).toEqual([
      { id: p.report_id, cluster_id: clusterId, cluster_name: 'edge', created_at: p.created_at, verdict: 'BLOCKED', key_id: p.key_id },
    ]);
    const audit = t.manager.store.audit.list({ action: 'report.run' });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor: 'olga',
      cluster_id: clusterId,
      target: p.report_id,
      details: { verdict: 'BLOCKED', lines: { PASS: p.lines.filter((l) => l.status === 'PASS').length, FAIL: 0, BLOCKED: 1 } },
    });
    expect(events).toContainEqual({ type: 'report.created', data: { id: p.report_id, cluster_id: clusterId, verdict: 'BLOCKED' } });
  });
});
