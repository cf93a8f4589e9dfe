// Discovery, health, TLS and authentication of the test server, through @kubernetes/client-node.
import { ApisApi, CoreApi, CoreV1Api, KubeConfig, VersionApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeRequest } from './rest-client.js';
import type { KubeApiServer } from './server.js';
import { startKubeApiServer } from './server.js';

let server: KubeApiServer;
beforeAll(async () => {
  server = await startKubeApiServer();
});
afterAll(() => server.close());

const get = async (path: string, token = server.adminToken): Promise<{ status: number; body: Record<string, unknown> }> => {
  const r = await kubeRequest(server.kubeConfig(token), 'GET', path);
  return { status: r.status, body: r.text.startsWith('{') ? (JSON.parse(r.text) as Record<string, unknown>) : { text: r.text } };
};

describe('discovery', () => {
  it('serves /version like the real server', async () => {
    const v = await server.kubeConfig().makeApiClient(VersionApi).getCode();
    expect(v).toMatchObject({ major: '1', minor: '30', gitVersion: 'v1.30.0', platform: 'linux/amd64', compiler: 'gc' });
    expect(v.goVersion).toMatch(/^go1\./);
  });

  it('serves /api, /apis and /apis/{group}', async () => {
    const kc = server.kubeConfig();
    const api = await kc.makeApiClient(CoreApi).getAPIVersions();
    expect(api.versions).toEqual(['v1']);
    expect(api.serverAddressByClientCIDRs?.[0]?.serverAddress).toBe(`127.0.0.1:${server.port}`);
    const groups = await kc.makeApiClient(ApisApi).getAPIVersions();
    const names = groups.groups.map((g) => g.name);
    for (const g of [
      'apps',
      'coordination.k8s.io',
      'rbac.authorization.k8s.io',
      'apiextensions.k8s.io',
      'storage.k8s.io',
      'networking.k8s.io',
      'authorization.k8s.io',
      'events.k8s.io',
    ]) {
      expect(names).toContain(g);
    }
    expect(groups.groups.find((g) => g.name === 'apps')?.preferredVersion).toEqual({ groupVersion: 'apps/v1', version: 'v1' });
    expect((await get('/apis/coordination.k8s.io')).body).toMatchObject({ kind: 'APIGroup', name: 'coordination.k8s.io' });
    expect((await get('/apis/nothing.example.com/v1')).status).toBe(404);
  });

  it('lists resources with verbs, short names and subresources', async () => {
    const core = await server.kubeConfig().makeApiClient(CoreV1Api).getAPIResources();
    const byName = new Map(core.resources.map((r) => [r.name, r]));
    expect(core.groupVersion).toBe('v1');
    expect(byName.get('configmaps')).toMatchObject({ singularName: 'configmap', namespaced: true, kind: 'ConfigMap', shortNames: ['cm'] });
    expect(byName.get('configmaps')?.verbs).toEqual(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    expect(byName.get('nodes')).toMatchObject({ namespaced: false, kind: 'Node' });
    expect(byName.get('serviceaccounts/token')).toMatchObject({
      group: 'authentication.k8s.io',
      version: 'v1',
      kind: 'TokenRequest',
      verbs: ['create'],
    });
    const apps = (await get('/apis/apps/v1')).body as { resources: { name: string; kind: string; verbs: string[] }[] };
    expect(apps.resources.find((r) => r.name === 'deployments/status')).toMatchObject({
      kind: 'Deployment',
      verbs: ['get', 'patch', 'update'],
    });
    expect(apps.resources.find((r) => r.name === 'deployments/scale')).toMatchObject({ kind: 'Scale' });
    const leases = (await get('/apis/coordination.k8s.io/v1')).body as { resources: { name: string; namespaced: boolean }[] };
    expect(leases.resources).toContainEqual(expect.objectContaining({ name: 'leases', namespaced: true }));
  });

  it('answers health endpoints without credentials', async () => {
    for (const p of ['/healthz', '/readyz', '/livez']) {
      const r = await kubeRequest(server.kubeConfig('nobody'), 'GET', p);
      expect([p, r.status, r.text]).toEqual([p, 200, 'ok']);
    }
  });
});

describe('TLS and authentication', () => {
  it('presents a certificate valid for localhost too', async () => {
    const kc = new KubeConfig();
    kc.loadFromString(server.kubeconfigFor(server.adminToken, { server: `https://localhost:${server.port}` }));
    expect((await kc.makeApiClient(VersionApi).getCode()).gitVersion).toBe('v1.30.0');
  });

  it('refuses an unknown or missing token with a 401 Status', async () => {
    // client-node's generated APIs drop the 401 body; the raw answer is the real Status.
    await expect(server.kubeConfig('not-a-token').makeApiClient(CoreV1Api).listNamespace()).rejects.toMatchObject({ code: 401 });
    const raw = await kubeRequest(server.kubeConfig('not-a-token'), 'GET', '/api/v1/namespaces');
    expect(JSON.parse(raw.text)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser(
      { name: 'c', server: server.url, caData: Buffer.from(server.caPem).toString('base64'), skipTLSVerify: false },
      { name: 'anonymous' },
    );
    expect((await kubeRequest(kc, 'GET', '/api/v1/namespaces')).status).toBe(401);
  });

  it('identifies each token: admin, ServiceAccount, user', async () => {
    const who = async (token: string): Promise<unknown> =>
      JSON.parse(
        (
          await kubeRequest(server.kubeConfig(token), 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
            apiVersion: 'authentication.k8s.io/v1',
            kind: 'SelfSubjectReview',
          })
        ).text,
      );
    expect(await who(server.adminToken)).toMatchObject({
      status: { userInfo: { username: 'admin', groups: ['system:masters', 'system:authenticated'] } },
    });
    expect(await who(server.createToken('kube-system', 'coredns'))).toMatchObject({
      status: {
        userInfo: {
          username: 'system:serviceaccount:kube-system:coredns',
          groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
        },
      },
    });
    expect(await who(server.userToken('alice', ['ops']))).toMatchObject({
      status: { userInfo: { username: 'alice', groups: ['ops', 'system:authenticated'] } },
    });
  });
});
