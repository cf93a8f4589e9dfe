// Authorization: RBAC from applied YAML, checked with each identity's token; 403 messages as the real server words them.
import { AppsV1Api, AuthorizationV1Api, CoordinationV1Api, CoreV1Api, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeRequest } from './rest-client.js';
import type { KubeApiServer } from './server.js';
import { startKubeApiServer } from './server.js';
import { failure } from './test-helpers.js';

let server: KubeApiServer;

const RBAC = `
apiVersion: v1
kind: Namespace
metadata: { name: a }
---
apiVersion: v1
kind: Namespace
metadata: { name: b }
---
apiVersion: v1
kind: ServiceAccount
metadata: { name: agent, namespace: a }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: { name: agent, namespace: a }
rules:
  - apiGroups: [coordination.k8s.io]
    resources: [leases]
    verbs: [get, create, update]
  - apiGroups: [""]
    resources: [configmaps]
    verbs: [create]
  - apiGroups: [""]
    resources: [configmaps]
    resourceNames: [navin-cluster-agent-state]
    verbs: [get, update, list, watch]
  - apiGroups: [apps]
    resources: [deployments/status]
    verbs: [get, update]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: agent, namespace: a }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: agent }
subjects:
  - kind: ServiceAccount
    name: agent
    namespace: a
`;

let agent: string;
beforeAll(async () => {
  server = await startKubeApiServer();
  await server.apply(RBAC);
  agent = server.createToken('a', 'agent');
});
afterAll(() => server.close());

const SA = 'system:serviceaccount:a:agent';

describe('a ServiceAccount bound to a Role in namespace a', () => {
  it('is allowed in a', async () => {
    const leases = server.kubeConfig(agent).makeApiClient(CoordinationV1Api);
    await leases.createNamespacedLease({
      namespace: 'a',
      body: { metadata: { name: 'navin-cluster-agent' }, spec: { holderIdentity: 'me' } },
    });
    expect((await leases.readNamespacedLease({ name: 'navin-cluster-agent', namespace: 'a' })).spec?.holderIdentity).toBe('me');
  });

  it('is refused in b with the real 403 Status', async () => {
    const leases = server.kubeConfig(agent).makeApiClient(CoordinationV1Api);
    expect(await failure(leases.readNamespacedLease({ name: 'navin-cluster-agent', namespace: 'b' }))).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `leases.coordination.k8s.io "navin-cluster-agent" is forbidden: User "${SA}" cannot get resource "leases" in API group "coordination.k8s.io" in the namespace "b"`,
      reason: 'Forbidden',
      details: { name: 'navin-cluster-agent', group: 'coordination.k8s.io', kind: 'leases' },
      code: 403,
    });
    expect((await failure(leases.listNamespacedLease({ namespace: 'b' }))).message).toBe(
      `leases.coordination.k8s.io is forbidden: User "${SA}" cannot list resource "leases" in API group "coordination.k8s.io" in the namespace "b"`,
    );
  });

  it('gets only the verbs granted: no delete, no secrets, no cluster-scoped reads', async () => {
    const kc = server.kubeConfig(agent);
    expect(
      (await failure(kc.makeApiClient(CoordinationV1Api).deleteNamespacedLease({ name: 'navin-cluster-agent', namespace: 'a' }))).code,
    ).toBe(403);
    expect((await failure(kc.makeApiClient(CoreV1Api).listNamespacedSecret({ namespace: 'a' }))).message).toBe(
      `secrets is forbidden: User "${SA}" cannot list resource "secrets" in API group "" in the namespace "a"`,
    );
    expect((await failure(kc.makeApiClient(CoreV1Api).listNode())).message).toBe(
      `nodes is forbidden: User "${SA}" cannot list resource "nodes" in API group "" at the cluster scope`,
    );
  });

  it('resourceNames: get of that name only; list/watch only narrowed to it; create never', async () => {
    const core = server.kubeConfig(agent).makeApiClient(CoreV1Api);
    await core.createNamespacedConfigMap({ namespace: 'a', body: { metadata: { name: 'navin-cluster-agent-state' } } });
    await core.readNamespacedConfigMap({ name: 'navin-cluster-agent-state', namespace: 'a' });
    expect((await failure(core.readNamespacedConfigMap({ name: 'kube-root-ca.crt', namespace: 'a' }))).message).toBe(
      `configmaps "kube-root-ca.crt" is forbidden: User "${SA}" cannot get resource "configmaps" in API group "" in the namespace "a"`,
    );
    expect((await failure(core.listNamespacedConfigMap({ namespace: 'a' }))).code).toBe(403);
    const narrowed = await core.listNamespacedConfigMap({ namespace: 'a', fieldSelector: 'metadata.name=navin-cluster-agent-state' });
    expect(narrowed.items.map((i) => i.metadata?.name)).toEqual(['navin-cluster-agent-state']);
    // A rule restricted by resourceNames cannot authorise create: only the unrestricted create rule did above.
    await server.apply(`
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: { name: named-only, namespace: b }
rules:
  - { apiGroups: [""], resources: [configmaps], resourceNames: [x], verbs: [create, get] }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: named-only, namespace: b }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: named-only }
subjects: [{ kind: ServiceAccount, name: agent, namespace: a }]
`);
    const s = await failure(core.createNamespacedConfigMap({ namespace: 'b', body: { metadata: { name: 'x' } } }));
    expect(s.message).toBe(
      `configmaps is forbidden: User "${SA}" cannot create resource "configmaps" in API group "" in the namespace "b"`,
    );
  });

  it('subresources are separate: deployments/status but not deployments', async () => {
    const apps = server.kubeConfig(agent).makeApiClient(AppsV1Api);
    const d = await server
      .kubeConfig()
      .makeApiClient(AppsV1Api)
      .createNamespacedDeployment({
        namespace: 'a',
        body: {
          metadata: { name: 'd' },
          spec: {
            selector: { matchLabels: { a: 'b' } },
            template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
          },
        },
      });
    await apps.replaceNamespacedDeploymentStatus({ name: 'd', namespace: 'a', body: { ...d, status: { replicas: 1 } } });
    expect((await failure(apps.replaceNamespacedDeployment({ name: 'd', namespace: 'a', body: d }))).message).toBe(
      `deployments.apps "d" is forbidden: User "${SA}" cannot update resource "deployments" in API group "apps" in the namespace "a"`,
    );
    const s = await failure(
      server
        .kubeConfig(agent)
        .makeApiClient(CoreV1Api)
        .createNamespacedServiceAccountToken({ name: 'agent', namespace: 'a', body: { spec: { audiences: [] } } }),
    );
    expect(s).toMatchObject({
      message: `serviceaccounts "agent" is forbidden: User "${SA}" cannot create resource "serviceaccounts/token" in API group "" in the namespace "a"`,
      details: { name: 'agent', kind: 'serviceaccounts' },
    });
  });
});

describe('bindings and subjects', () => {
  it('a RoleBinding to a ClusterRole grants it only in its namespace; a ClusterRoleBinding everywhere', async () => {
    const admin = server.kubeConfig().makeApiClient(CoreV1Api);
    await admin.createNamespacedServiceAccount({ namespace: 'b', body: { metadata: { name: 'viewer' } } });
    const token = server.createToken('b', 'viewer');
    await server.apply(`
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: read-cm }
rules: [{ apiGroups: [""], resources: [configmaps, nodes], verbs: [get, list, watch] }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: read-cm, namespace: b }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: read-cm }
subjects: [{ kind: ServiceAccount, name: viewer, namespace: b }]
`);
    const core = server.kubeConfig(token).makeApiClient(CoreV1Api);
    await core.listNamespacedConfigMap({ namespace: 'b' });
    expect((await failure(core.listNamespacedConfigMap({ namespace: 'a' }))).code).toBe(403);
    expect((await failure(core.listNode())).code).toBe(403);
    expect((await failure(core.listConfigMapForAllNamespaces())).message).toMatch(
      /cannot list resource "configmaps" in API group "" at the cluster scope$/,
    );
    await server.apply(`
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: { name: read-cm }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: read-cm }
subjects: [{ kind: ServiceAccount, name: viewer, namespace: b }]
`);
    expect((await core.listNode()).items).toHaveLength(3);
    await core.listNamespacedConfigMap({ namespace: 'a' });
  });

  it('User and Group subjects, wildcards in verbs, groups and resources', async () => {
    await server.apply(`
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: everything }
rules: [{ apiGroups: ["*"], resources: ["*"], verbs: ["*"] }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: ops, namespace: b }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: everything }
subjects: [{ kind: Group, name: ops }, { kind: User, name: carol }]
`);
    for (const token of [server.userToken('dave', ['ops']), server.userToken('carol')]) {
      const core = server.kubeConfig(token).makeApiClient(CoreV1Api);
      await core.createNamespacedSecret({ namespace: 'b', body: { metadata: { generateName: 's-' } } });
      expect((await failure(core.listNamespacedSecret({ namespace: 'a' }))).code).toBe(403);
    }
    expect(
      (
        await failure(
          server
            .kubeConfig(server.userToken('erin', ['dev']))
            .makeApiClient(CoreV1Api)
            .listNamespacedSecret({ namespace: 'b' }),
        )
      ).code,
    ).toBe(403);
  });

  it('nonResourceURLs: discovery for every authenticated user, other paths only when granted (exact or /prefix/*)', async () => {
    const get = async (token: string, path: string): Promise<{ status: number; body: string }> => {
      const r = await kubeRequest(server.kubeConfig(token), 'GET', path);
      return { status: r.status, body: r.text };
    };
    for (const p of ['/version', '/api', '/apis', '/api/v1', '/apis/coordination.k8s.io/v1'])
      expect([p, (await get(agent, p)).status]).toEqual([p, 200]);
    const denied = await get(agent, '/metrics');
    expect(denied.status).toBe(403);
    expect(JSON.parse(denied.body)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `forbidden: User "${SA}" cannot get path "/metrics"`,
      reason: 'Forbidden',
      details: {},
      code: 403,
    });
    await server.apply(`
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: metrics }
rules: [{ nonResourceURLs: [/metrics, "/logs/*"], verbs: [get] }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: { name: metrics }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: metrics }
subjects: [{ kind: ServiceAccount, name: agent, namespace: a }]
`);
    expect((await get(agent, '/metrics')).status).toBe(404);
    expect((await get(agent, '/logs/kube-apiserver.log')).status).toBe(404);
    expect((await get(agent, '/logsx')).status).toBe(403);
  });

  it('without the bootstrap policy even discovery is refused', async () => {
    const bare = await startKubeApiServer({ builtinRbac: false, seed: (d) => d.filter((o) => o.kind !== 'Node') });
    try {
      const r = await kubeRequest(bare.kubeConfig(bare.createToken('default', 'default')), 'GET', '/version');
      expect(r.status).toBe(403);
      expect((await kubeRequest(bare.kubeConfig(), 'GET', '/version')).status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});

describe('access reviews, tokens and impersonation', () => {
  it('SelfSubjectAccessReview and SelfSubjectRulesReview answer for the caller', async () => {
    const authz = server.kubeConfig(agent).makeApiClient(AuthorizationV1Api);
    const yes = await authz.createSelfSubjectAccessReview({
      body: { spec: { resourceAttributes: { namespace: 'a', verb: 'get', group: 'coordination.k8s.io', resource: 'leases' } } },
    });
    expect(yes.status).toMatchObject({
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "agent/a" of Role "agent" to ServiceAccount "agent/a"',
    });
    const no = await authz.createSelfSubjectAccessReview({
      body: { spec: { resourceAttributes: { namespace: 'b', verb: 'get', group: 'coordination.k8s.io', resource: 'leases' } } },
    });
    expect(no.status?.allowed).toBe(false);
    const rules = await authz.createSelfSubjectRulesReview({ body: { spec: { namespace: 'a' } } });
    expect(rules.status?.resourceRules).toContainEqual({
      verbs: ['get', 'create', 'update'],
      apiGroups: ['coordination.k8s.io'],
      resources: ['leases'],
    });
    expect(rules.status?.nonResourceRules?.some((r) => r.nonResourceURLs?.includes('/version'))).toBe(true);
  });

  it('the TokenRequest API issues tokens for existing ServiceAccounts only; deleting the SA revokes them', async () => {
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    await core.createNamespacedServiceAccount({ namespace: 'b', body: { metadata: { name: 'temp' } } });
    const tr = await core.createNamespacedServiceAccountToken({
      name: 'temp',
      namespace: 'b',
      body: { spec: { audiences: [], expirationSeconds: 600 } },
    });
    const token = tr.status?.token ?? '';
    expect(token.split('.')).toHaveLength(3);
    expect(tr.status?.expirationTimestamp).toBeInstanceOf(Date);
    const me = await kubeRequest(server.kubeConfig(token), 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {});
    expect(JSON.parse(me.text).status.userInfo.username).toBe('system:serviceaccount:b:temp');
    expect(
      await failure(core.createNamespacedServiceAccountToken({ name: 'ghost', namespace: 'b', body: { spec: { audiences: [] } } })),
    ).toMatchObject({ code: 404, message: 'serviceaccounts "ghost" not found' });
    expect(
      (
        await failure(
          core.createNamespacedServiceAccountToken({
            name: 'temp',
            namespace: 'b',
            body: { spec: { audiences: [], expirationSeconds: 60 } },
          }),
        )
      ).code,
    ).toBe(422);
    expect(() => server.createToken('b', 'ghost')).toThrow(/not found/);
    await core.deleteNamespacedServiceAccount({ name: 'temp', namespace: 'b' });
    expect((await kubeRequest(server.kubeConfig(token), 'GET', '/version')).status).toBe(401);
  });

  it('impersonation needs the impersonate verb', async () => {
    const asAgent = setHeaderOptions('Impersonate-User', SA);
    const admin = server.kubeConfig().makeApiClient(CoreV1Api);
    expect((await failure(admin.listNamespacedSecret({ namespace: 'a' }, asAgent))).message).toMatch(
      `User "${SA}" cannot list resource "secrets"`,
    );
    const s = await failure(
      server
        .kubeConfig(server.userToken('mallory'))
        .makeApiClient(CoreV1Api)
        .listNamespacedSecret({ namespace: 'a' }, setHeaderOptions('Impersonate-User', 'admin')),
    );
    expect(s.message).toBe(
      'users "admin" is forbidden: User "mallory" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
  });
});
