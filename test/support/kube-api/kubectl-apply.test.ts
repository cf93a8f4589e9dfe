// The real kubectl, unmodified and validating (no --validate=false), against the test server: apply -f, diff,
// apply --server-side with its conflicts, get --watch -o wide, explain. Run for two server versions, since the
// kubectl dispatcher picks the client of the server's minor version.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeApiServer } from './server.js';
import { startKubeApiServer } from './server.js';
import { KUBECTL, eventually, hasKubectl, kubectl } from './test-helpers.js';

const deployment = (image: string, replicas = 2, extra = ''): string => `apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: shop, labels: { app: web } }
spec:
  replicas: ${replicas}${extra}
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
        - name: web
          image: ${image}
          ports: [{ containerPort: 80 }]
        - name: sidecar
          image: busybox:1.36
`;

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.com }
spec:
  group: example.com
  scope: Namespaced
  names: { plural: widgets, singular: widget, kind: Widget }
  versions:
    - name: v1
      served: true
      storage: true
      additionalPrinterColumns: [{ name: Size, type: integer, jsonPath: .spec.size }]
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: { type: object, properties: { size: { type: integer } } }
`;
const widget = (spec: string): string =>
  `apiVersion: example.com/v1\nkind: Widget\nmetadata: { name: w1, namespace: shop }\nspec: ${spec}\n`;

const rows = (out: string): string[][] =>
  out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => l.trim().split(/\s{2,}/));

describe.each(['v1.30.0', 'v1.32.0'])('kubectl with a %s server', (gitVersion) => {
  let server: KubeApiServer;
  let dir: string;
  let admin: string;
  const run = (...args: string[]): ReturnType<typeof kubectl> =>
    kubectl([...args, '--kubeconfig', admin, '--cache-dir', join(dir, 'cache')], { HOME: dir });
  const file = async (name: string, text: string): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };
  const owners = (): string[] =>
    (
      (server.store.get('apps/v1', 'Deployment', 'web', 'shop')?.metadata.managedFields ?? []) as { manager: string; operation: string }[]
    ).map((m) => `${m.manager}/${m.operation}`);

  beforeAll(async () => {
    server = await startKubeApiServer({ gitVersion });
    dir = await mkdtemp(join(tmpdir(), 'kube-api-kubectl-apply-'));
    admin = await server.writeKubeconfig(dir, 'admin.kubeconfig', server.adminToken);
    await server.apply('apiVersion: v1\nkind: Namespace\nmetadata: { name: shop }\n');
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  describe.skipIf(!hasKubectl)(hasKubectl ? 'apply, diff, server-side apply, watch' : `skipped: ${KUBECTL} is not installed`, () => {
    it('apply -f validates with the served OpenAPI: an unknown field is refused by the server, then the object is created and configured', async () => {
      const bad = await run('apply', '-f', await file('bad.yaml', deployment('nginx:1.25', 2, '\n  replica: 2')));
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain(
        'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"',
      );
      expect(server.store.get('apps/v1', 'Deployment', 'web', 'shop')).toBeUndefined();
      // kubectl asked whether the server validates fields itself, from the OpenAPI v3 documents, and got them.
      const openapi = server.requests.filter((r) => r.path.startsWith('/openapi/'));
      expect(openapi.map((r) => `${r.path} ${r.code}`)).toEqual(
        expect.arrayContaining(['/openapi/v3 200', '/openapi/v3/apis/apps/v1 200']),
      );
      // Server-side field validation: kubectl sent the object with fieldValidation=Strict and the server refused it.
      const refusedPost = server.requests.find((r) => r.method === 'POST' && r.path === '/apis/apps/v1/namespaces/shop/deployments');
      expect([refusedPost?.code, refusedPost?.query]).toEqual([400, expect.stringContaining('fieldValidation=Strict')]);

      const created = await run('apply', '-f', await file('web.yaml', deployment('nginx:1.25')));
      expect([created.code, created.stdout.trim(), created.stderr]).toEqual([0, 'deployment.apps/web created', '']);
      const configured = await run('apply', '-f', await file('web.yaml', deployment('nginx:1.26')));
      expect([configured.code, configured.stdout.trim(), configured.stderr]).toEqual([0, 'deployment.apps/web configured', '']);
      // A strategic merge patch keyed by container name (the served x-kubernetes-patch-merge-key): both containers stay.
      const live = server.store.get('apps/v1', 'Deployment', 'web', 'shop');
      const containers = (live?.spec as { template: { spec: { containers: { name: string; image: string }[] } } }).template.spec.containers;
      expect(containers.map((c) => `${c.name}=${c.image}`)).toEqual(['web=nginx:1.26', 'sidecar=busybox:1.36']);
      expect(owners()).toEqual(['kubectl-client-side-apply/Update']);
      const unchanged = await run('apply', '-f', await file('web.yaml', deployment('nginx:1.26')));
      expect(unchanged.stdout.trim()).toBe('deployment.apps/web unchanged');
    });

    it('diff prints what applying would change (exit 1) and nothing for the live state (exit 0)', async () => {
      const same = await run('diff', '-f', await file('same.yaml', deployment('nginx:1.26')));
      expect([same.code, same.stdout, same.stderr]).toEqual([0, '', '']);
      const changed = await run('diff', '-f', await file('next.yaml', deployment('nginx:1.27', 3)));
      expect(changed.stderr).toBe('');
      expect(changed.code).toBe(1);
      const lines = changed.stdout.split('\n');
      expect(lines).toEqual(
        expect.arrayContaining(['-  replicas: 2', '+  replicas: 3', '-      - image: nginx:1.26', '+      - image: nginx:1.27']),
      );
      // A dry run: nothing was written.
      expect((server.store.get('apps/v1', 'Deployment', 'web', 'shop')?.spec as { replicas: number }).replicas).toBe(2);
    });

    it('apply --server-side takes over from client-side apply, is refused with the API conflict on a field another manager set, and --force-conflicts takes it', async () => {
      const ssa = await run('apply', '--server-side', '-f', await file('web.yaml', deployment('nginx:1.26')));
      expect([ssa.code, ssa.stdout.trim(), ssa.stderr]).toEqual([0, 'deployment.apps/web serverside-applied', '']);
      expect(owners()).toContain('kubectl/Apply');
      expect(owners()).not.toContain('kubectl-client-side-apply/Update');

      const scaled = await run('-n', 'shop', 'patch', 'deployment', 'web', '-p', '{"spec":{"replicas":5}}');
      expect(scaled.stdout.trim()).toBe('deployment.apps/web patched');
      const refused = await run('apply', '--server-side', '-f', await file('web.yaml', deployment('nginx:1.26')));
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('error: Apply failed with 1 conflict: conflict with "kubectl-patch" using apps/v1: .spec.replicas');
      expect(refused.stderr).toContain('--force-conflicts');
      expect((server.store.get('apps/v1', 'Deployment', 'web', 'shop')?.spec as { replicas: number }).replicas).toBe(5);

      // Co-owning a field with the same value is no conflict.
      const replicasOnly = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: web, namespace: shop }\nspec: { replicas: 5 }\n';
      const coOwned = await run('apply', '--server-side', '--field-manager', 'ops', '-f', await file('five.yaml', replicasOnly));
      expect([coOwned.code, coOwned.stderr]).toEqual([0, '']);

      const forced = await run('apply', '--server-side', '--force-conflicts', '-f', await file('web.yaml', deployment('nginx:1.26')));
      expect([forced.code, forced.stdout.trim()]).toEqual([0, 'deployment.apps/web serverside-applied']);
      expect((server.store.get('apps/v1', 'Deployment', 'web', 'shop')?.spec as { replicas: number }).replicas).toBe(2);
      const fields = server.store.get('apps/v1', 'Deployment', 'web', 'shop')?.metadata.managedFields as {
        manager: string;
        fieldsV1: { 'f:spec'?: object };
      }[];
      expect(fields.find((m) => m.manager === 'kubectl')?.fieldsV1['f:spec']).toHaveProperty('f:replicas');
      expect(fields.find((m) => m.manager === 'ops')?.fieldsV1['f:spec'] ?? {}).not.toHaveProperty('f:replicas');
      expect(fields.find((m) => m.manager === 'kubectl-patch')).toBeUndefined();

      // Dropping a field from the applied configuration removes it, as nobody else owns it.
      const noSidecar = deployment('nginx:1.26').replace(/ {8}- name: sidecar\n {10}image: busybox:1.36\n/, '');
      const pruned = await run('apply', '--server-side', '--force-conflicts', '-f', await file('web.yaml', noSidecar));
      expect(pruned.code).toBe(0);
      const after = server.store.get('apps/v1', 'Deployment', 'web', 'shop')?.spec as {
        template: { spec: { containers: { name: string }[] } };
      };
      expect(after.template.spec.containers.map((c) => c.name)).toEqual(['web']);
    });

    it('custom resources: apply -f refuses a field their schema lacks, diff and apply --server-side work on them', async () => {
      expect((await run('apply', '-f', await file('crd.yaml', CRD))).code).toBe(0);
      await eventually(() => server.store.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'widgets.example.com'));
      const bad = await run('apply', '-f', await file('w.yaml', widget('{ sise: 1 }')));
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain(
        'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.sise"',
      );
      const created = await run('apply', '-f', await file('w.yaml', widget('{ size: 1 }')));
      expect([created.code, created.stdout.trim(), created.stderr]).toEqual([0, 'widget.example.com/w1 created', '']);
      const diff = await run('diff', '-f', await file('w2.yaml', widget('{ size: 2 }')));
      expect(diff.code).toBe(1);
      expect(diff.stdout.split('\n')).toEqual(expect.arrayContaining(['-  size: 1', '+  size: 2']));
      const ssa = await run('apply', '--server-side', '-f', await file('w2.yaml', widget('{ size: 2 }')));
      expect([ssa.code, ssa.stdout.trim(), ssa.stderr]).toEqual([0, 'widget.example.com/w1 serverside-applied', '']);
      const table = await run('-n', 'shop', 'get', 'widgets');
      expect(rows(table.stdout).map((r) => [r[0], r[1]])).toEqual([
        ['NAME', 'SIZE'],
        ['w1', '2'],
      ]);
    });

    it('get --watch -o wide prints the wide columns for the listed object and for every change', async () => {
      const child = spawn(
        KUBECTL,
        ['-n', 'shop', 'get', 'deployments', '--watch', '-o', 'wide', '--kubeconfig', admin, '--cache-dir', join(dir, 'cache')],
        {
          env: { PATH: process.env.PATH ?? '', HOME: dir },
        },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      try {
        await eventually(() => rows(out).length >= 2, 10_000);
        // The change must come after the watch started, or it would be in the list instead.
        await eventually(() => server.requests.some((r) => r.path.endsWith('/shop/deployments') && r.query.includes('watch=true')), 10_000);
        expect((await run('-n', 'shop', 'set', 'image', 'deployment/web', 'web=nginx:1.28')).code).toBe(0);
        await eventually(() => rows(out).length >= 3, 10_000);
      } finally {
        child.kill();
      }
      expect(err).toBe('');
      const table = rows(out);
      expect(table[0]).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
      const [, listed, changed] = table;
      expect([listed?.[0], listed?.[1], listed?.[5], listed?.[6], listed?.[7]]).toEqual(['web', '0/2', 'web', 'nginx:1.26', 'app=web']);
      expect([changed?.[0], changed?.[5], changed?.[6], changed?.[7]]).toEqual(['web', 'web', 'nginx:1.28', 'app=web']);
      // The watch asked for Table rows, and got them (the header is printed once).
      const watchRequest = server.requests.find(
        (r) => r.path === '/apis/apps/v1/namespaces/shop/deployments' && r.query.includes('watch=true'),
      );
      expect(watchRequest?.accept).toContain('as=Table');
      expect(table.filter((r) => r[0] === 'NAME')).toHaveLength(1);
    });

    it('explain reads the schemas from both the OpenAPI v3 documents and the v2 protobuf', async () => {
      const v3 = await run('explain', 'deployment.spec.template.spec.containers.ports');
      expect(v3.code).toBe(0);
      expect(v3.stdout).toMatch(/FIELD: ports <\[\]ContainerPort>/);
      expect(v3.stdout).toMatch(/containerPort\s+<integer>/);
      const v2 = await run('explain', 'deployment.spec.replicas', '--output=plaintext-openapiv2');
      expect([v2.code, v2.stderr]).toEqual([0, '']);
      expect(v2.stdout).toMatch(/FIELD: +replicas <integer>/);
      const pb = server.requests.find((r) => r.path === '/openapi/v2');
      expect(pb?.accept).toContain('protobuf');
      expect(pb?.code).toBe(200);
    });
  });
});
