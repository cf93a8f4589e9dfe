// kubectl against the test server: get (Table output), auth can-i (exit codes), create token. Apply, diff,
// server-side apply and watch are in kubectl-apply.test.ts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeApiServer } from './server.js';
import { startKubeApiServer } from './server.js';
import { KUBECTL, hasKubectl, kubectl } from './test-helpers.js';

let server: KubeApiServer;
let dir: string;
let admin: string;
let importer: string;
const run = (kubeconfig: string, ...args: string[]): ReturnType<typeof kubectl> =>
  kubectl([...args, '--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache')], { HOME: dir });

beforeAll(async () => {
  server = await startKubeApiServer();
  dir = await mkdtemp(join(tmpdir(), 'kube-api-kubectl-'));
  await server.apply(`
apiVersion: v1
kind: Namespace
metadata: { name: navin-platform }
---
apiVersion: v1
kind: ServiceAccount
metadata: { name: navin-import, namespace: navin-platform }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: { name: leases, namespace: navin-platform }
rules: [{ apiGroups: [coordination.k8s.io], resources: [leases], verbs: [get] }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: leases, namespace: navin-platform }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: leases }
subjects: [{ kind: ServiceAccount, name: navin-import, namespace: navin-platform }]
`);
  admin = await server.writeKubeconfig(dir, 'admin.kubeconfig', server.adminToken);
  importer = await server.writeKubeconfig(dir, 'import.kubeconfig', { namespace: 'navin-platform', serviceAccount: 'navin-import' });
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!hasKubectl)(hasKubectl ? 'kubectl' : `kubectl: skipped, ${KUBECTL} is not installed`, () => {
  it('get nodes prints the Table the server renders', async () => {
    const r = await run(admin, 'get', 'nodes');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(/\s+/));
    expect(lines[0]).toEqual(['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION']);
    expect(lines.slice(1).map((l) => [l[0], l[1], l[2], l[4]])).toEqual([
      ['navin-control-plane', 'Ready', 'control-plane', 'v1.30.0'],
      ['navin-worker', 'Ready', '<none>', 'v1.30.0'],
      ['navin-worker2', 'Ready', '<none>', 'v1.30.0'],
    ]);
  });

  it('auth can-i answers yes (exit 0) and no (exit 1) for a ServiceAccount kubeconfig', async () => {
    const yes = await run(importer, 'auth', 'can-i', 'get', 'leases', '-n', 'navin-platform');
    expect([yes.code, yes.stdout.trim()]).toEqual([0, 'yes']);
    const no = await run(importer, 'auth', 'can-i', 'get', 'leases', '-n', 'default');
    expect([no.code, no.stdout.trim()]).toEqual([1, 'no']);
    const secrets = await run(importer, 'auth', 'can-i', 'list', 'secrets', '-n', 'navin-platform');
    expect([secrets.code, secrets.stdout.trim()]).toEqual([1, 'no']);
  });

  it('create token issues a token that authenticates as the ServiceAccount', async () => {
    const r = await run(admin, '-n', 'navin-platform', 'create', 'token', 'navin-import');
    expect(r.code).toBe(0);
    const path = await server.writeKubeconfig(dir, 'created.kubeconfig', r.stdout.trim());
    const who = await run(path, 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}');
    expect(who.stdout).toBe('system:serviceaccount:navin-platform:navin-import');
  });

  it('get of a forbidden resource prints the server message', async () => {
    const r = await run(importer, 'get', 'secrets', '-n', 'navin-platform');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'Error from server (Forbidden): secrets is forbidden: User "system:serviceaccount:navin-platform:navin-import" cannot list resource "secrets" in API group "" in the namespace "navin-platform"',
    );
  });
});
