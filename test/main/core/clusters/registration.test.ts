// Registration of a cluster by kubeconfig, against the Kubernetes API test server: each failure gets its own
// precise code and leaves nothing stored; success stores the sealed token and a first inventory.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { join } from 'node:path';
import { importRbacObjects, importRbacYaml } from '../../../../main/core/kubernetes/import-rbac';
import { yamlDocuments } from '../../../../main/core/kubernetes/yaml-documents';
import { kubeTarget, type KubeTarget } from '../../../support/kube-api/target';
import { testManager, type TestManager } from '../../../support/manager';
import type { Credentials } from '../../../../main/core/http/router';

const NS = 'navin-platform';

/** The target's kubeconfig for a token, optionally pointed elsewhere or stripped of its CA. */
function kubeconfig(target: KubeTarget, token: string, opts: { server?: string; withoutCa?: boolean } = {}): string {
  const doc = parse(target.kubeconfigFor(token)) as { clusters: { cluster: Record<string, unknown> }[] };
  for (const c of doc.clusters) {
    if (opts.server) c.cluster.server = opts.server;
    if (opts.withoutCa) delete c.cluster['certificate-authority-data'];
  }
  return stringify(doc);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

describe('cluster registration', () => {
  let target: KubeTarget;
  let t: TestManager;
  let op: Credentials;
  let clusterId: string;
  let goodToken: string;

  beforeAll(async () => {
    target = await kubeTarget();
    await target.apply(importRbacYaml(NS, 'edge'));
    goodToken = await target.createToken(NS, 'navin-import');
    t = testManager();
    op = await t.login('olga', 'operator');
    clusterId = ((await t.call('POST', '/api/v1/clusters', { name: 'edge' }, op)).body as { id: string }).id;
  });
  afterAll(() => {
    t?.close();
    return target?.close();
  });

  const register = (kc: string) =>
    t.call('POST', `/api/v1/clusters/${clusterId}/kubernetes/registration`, { kubeconfig: kc, namespace: NS }, op);

  const expectNothingStored = () => {
    expect(t.manager.tables.clusterAccess.access(clusterId)).toBeUndefined();
    expect(t.manager.tables.clusterAccess.latestSnapshot(clusterId)).toBeUndefined();
    expect(t.manager.store.audit.list({ action: 'cluster.register' })).toHaveLength(0);
  };

  test('a wrong token is refused with token_refused', async () => {
    const res = await register(kubeconfig(target, 'not-a-real-token'));
    expect(res.body).toMatchObject({ error: { code: 'token_refused' } });
    expectNothingStored();
  });

  test('an API server whose CA is not given is refused with tls_untrusted', async () => {
    const res = await register(kubeconfig(target, goodToken, { withoutCa: true }));
    expect(res.body).toMatchObject({ error: { code: 'tls_untrusted' } });
    expectNothingStored();
  });

  test('an unreachable address is refused with api_unreachable', async () => {
    const res = await register(kubeconfig(target, goodToken, { server: 'https://127.0.0.1:1' }));
    expect(res.body).toMatchObject({ error: { code: 'api_unreachable' } });
    expectNothingStored();
  });

  test('a token lacking one permission is refused with permission_missing naming it', async () => {
    // The same identity, but its ClusterRole without ingress classes.
    const objects = importRbacObjects('lacking').map((o: any) =>
      o.kind === 'ClusterRole' ? { ...o, rules: o.rules.filter((r: any) => !r.resources.includes('ingressclasses')) } : o,
    );
    const yaml = yamlDocuments(objects);
    expect(yaml).toMatch(/storageclasses/);
    await target.apply(yaml);
    const token = await target.createToken('lacking', 'navin-import');
    const res = await t.call(
      'POST',
      `/api/v1/clusters/${clusterId}/kubernetes/registration`,
      { kubeconfig: kubeconfig(target, token), namespace: 'lacking' },
      op,
    );
    expect(res.body).toMatchObject({ error: { code: 'permission_missing' } });
    expect((res.body as { error: { message: string } }).error.message).toMatch(/ingressclasses/);
    expectNothingStored();
  });

  test('a malformed kubeconfig or namespace is a 400', async () => {
    expect((await register('{ not: [yaml')).status).toBe(400);
    const res = await t.call(
      'POST',
      `/api/v1/clusters/${clusterId}/kubernetes/registration`,
      { kubeconfig: kubeconfig(target, goodToken), namespace: 'Bad_NS' },
      op,
    );
    expect(res.body).toMatchObject({ error: { code: 'invalid_field', field: 'namespace' } });
    expectNothingStored();
  });

  test('a good kubeconfig registers the cluster, seals the token and stores a first inventory', async () => {
    expect((await t.call('GET', `/api/v1/clusters/${clusterId}`, undefined, op)).body).toMatchObject({
      state: 'pending',
      registered_at: null,
    });
    const res = await register(kubeconfig(target, goodToken));
    expect(res.status).toBe(200);
    // Still pending (no agent yet), and its view says it is registered: a console opened later asks for its inventory.
    const view = (await t.call('GET', `/api/v1/clusters/${clusterId}`, undefined, op)).body as { state: string; registered_at: string };
    expect(view.state).toBe('pending');
    expect(Date.parse(view.registered_at)).not.toBeNaN();
    const inv = await t.call('GET', `/api/v1/clusters/${clusterId}/inventory`, undefined, op);
    expect(inv.status).toBe(200);
    const body = inv.body as {
      inventory: {
        kubernetes_version: string;
        nodes: { name: string; ready: boolean }[];
        default_storage_class: string | null;
        coredns: unknown;
      };
    };
    expect(body.inventory.kubernetes_version).toMatch(/^v1\./);
    expect(body.inventory.nodes.length).toBeGreaterThan(0);
    expect(body.inventory.nodes[0]).toHaveProperty('ready');
    expect(body.inventory.coredns).toMatchObject({ ready_replicas: expect.any(Number) });
    // The token is stored sealed: it appears nowhere in the data dir in clear.
    for (const f of filesUnder(t.dataDir)) expect(readFileSync(f).includes(Buffer.from(goodToken))).toBe(false);
  });

  test('issuing a second agent identity revokes the first certificate, whose key was never stored', async () => {
    const first = await t.call(
      'POST',
      `/api/v1/clusters/${clusterId}/kubernetes/agent`,
      { gateway_url: 'https://manager.example:8462' },
      op,
    );
    expect(first.status).toBe(201);
    const a = first.body as {
      serial: string;
      files: Record<string, string>;
      secret_command: string;
      config: { payload: Record<string, unknown> };
    };
    expect(a.secret_command).toContain('create secret generic navin-cluster-agent-identity');
    for (const f of ['config.json', 'manager.pem', 'tls.crt', 'tls.key', 'ca.crt']) expect(a.secret_command).toContain(`--from-file=${f}`);
    expect(a.config.payload).toMatchObject({
      type: 'agent-config',
      cluster_id: clusterId,
      gateway_url: 'https://manager.example:8462',
      lease_duration_s: 15,
      redelivery_s: 15,
      long_poll_s: 30,
    });
    const second = await t.call(
      'POST',
      `/api/v1/clusters/${clusterId}/kubernetes/agent`,
      { gateway_url: 'https://manager.example:8462' },
      op,
    );
    const b = second.body as { serial: string; revoked_serials: string[] };
    expect(b.revoked_serials).toEqual([a.serial]);
    expect(t.manager.tables.keys.certificate(a.serial)?.revoked_at).not.toBeNull();
    expect(t.manager.tables.keys.certificate(b.serial)?.revoked_at).toBeNull();
    const keyBody = a.files['tls.key']!.split('\n')
      .filter((l) => !l.startsWith('-----'))
      .join('');
    for (const f of filesUnder(t.dataDir)) expect(readFileSync(f, 'latin1').includes(keyBody.slice(0, 64))).toBe(false);
  });

  test.each([['http://manager.example:8462'], ['not a url'], ['https://manager.example:8462/path'], ['']])(
    'a bad gateway_url %j is a 400 saying why',
    async (url) => {
      const res = await t.call('POST', `/api/v1/clusters/${clusterId}/kubernetes/agent`, { gateway_url: url }, op);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { code: 'invalid_field', field: 'gateway_url' } });
    },
  );

  test('manifests need an image pinned by digest', async () => {
    const tag = await t.call(
      'GET',
      `/api/v1/clusters/${clusterId}/kubernetes/agent/manifests?image=registry.local/agent:1.0`,
      undefined,
      op,
    );
    expect(tag.status).toBe(400);
    const ok = await t.call(
      'GET',
      `/api/v1/clusters/${clusterId}/kubernetes/agent/manifests?image=registry.local/agent@sha256:${'d'.repeat(64)}`,
      undefined,
      op,
    );
    expect(ok.status).toBe(200);
    expect(ok.contentType).toMatch(/yaml/);
  });
});
