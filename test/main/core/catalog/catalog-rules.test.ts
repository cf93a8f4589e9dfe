// The catalog where the lifecycle reads it: the catalog_valid profile rule validates the shipped descriptors
// and the desired state against them (an invalid catalog blocks installs, naming file, path and reason), and
// the preflight looks up a catalog version's artifacts in the real mirror by their keys and pins.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openManager } from '../../../../main/core/manager';
import { consoleApi } from '../../../../main/api/console-api';
import { buildBundle } from '../../../../main/core/bundle/bundle-build';
import { importBundle } from '../../../../main/core/bundle/bundle-import';
import { readCatalogDir, loadCatalogDir } from '../../../../main/core/catalog/catalog-loader';
import { OciClient } from '../../../../main/core/mirror/oci-client';
import type { CheckResult } from '../../../../main/contract/check-types';
import { nodeEd25519 } from '../../../../main/wire/ed25519-node';
import { releaseSigner } from '../../../support/bundles';
import { REPO_ROOT } from '../../../support/cli';
import { testManager, type TestManager } from '../../../support/manager';
import { registryAvailable, startRegistry, type TestRegistry } from '../../../support/registry';
import { describeNeeding } from '../../../support/needs';
import { tempDir } from '../../../support/temp-dir';

const CATALOG_DIR = join(REPO_ROOT, 'resources/catalog');
const rule = (rules: CheckResult[], id: string): CheckResult => rules.find((r) => r.id === `profile.${id}`)!;

describe('catalog_valid', () => {
  let t: TestManager;
  beforeAll(() => (t = testManager()));
  afterAll(() => t?.close());

  const clusterWith = (name: string, components: Record<string, unknown>): string => {
    const id = t.manager.clusters.create({ name, profile: 'development' }, 'test').id;
    for (const [n, spec] of Object.entries(components)) t.manager.commands.issue(id, 'managedcomponent.apply', { name: n, spec }, 'test');
    return id;
  };

  test('passes on the shipped files for a catalog version, naming each file and its sha256', async () => {
    const id = clusterWith('c1', { kv: { component: 'etcd', version: '3.4.23-1' } });
    const r = rule((await t.manager.profiles.evaluate(id)).rules, 'catalog_valid');
    expect(r.status).toBe('pass');
    const files = (r.evidence as any).catalog.files as { file: string; sha256: string }[];
    expect(files.map((f) => f.file)).toEqual([
      'etcd.yaml',
      'mariadb.yaml',
      'nats.yaml',
      'node-exporter.yaml',
      'opa.yaml',
      'openfga.yaml',
      'postgresql.yaml',
    ]);
    for (const f of files)
      expect(f.sha256).toBe(
        createHash('sha256')
          .update(readFileSync(join(CATALOG_DIR, f.file)))
          .digest('hex'),
      );
  });

  test('a version the catalog does not declare warns with the versions it does; an unknown service fails', async () => {
    const id = clusterWith('c2', { policy: { component: 'opa', version: '1.0.0' } });
    const r = rule((await t.manager.profiles.evaluate(id)).rules, 'catalog_valid');
    expect(r.status).toBe('warn');
    expect(r.reason?.en).toBe('policy: opa 1.0.0 is not in the catalog (declared: 1.21.3-1, 1.21.4-1)');
    // Written as a stored desired state, since the command path refuses such a spec before signing it.
    const bad = clusterWith('c3', {});
    t.manager.tables.commands.setDesiredState(bad, 1, { db: { component: 'mysql', version: '8' } }, t.manager.clock.now().toISOString());
    const e = await t.manager.profiles.evaluate(bad);
    expect(e.status).toBe('blocked');
    expect(rule(e.rules, 'catalog_valid').status).toBe('fail');
  });
});

describe('an invalid catalog blocks installs', () => {
  const dir = tempDir('navin-manager-');
  const files = readCatalogDir(CATALOG_DIR).map((f) =>
    f.file === 'etcd.yaml'
      ? { ...f, text: f.text.replace('sha256:a45de16600eafc57939b84013b0522c4670435471eb4073dd963d01e0eb5a217', 'sha256:a45de166') }
      : f,
  );
  const manager = openManager({ dataDir: dir.path, mode: 'headless', catalogFiles: files });
  afterAll(() => {
    manager.close();
    dir.remove();
  });

  test('the rule fails with file, path, line and reason, and an install is refused with profile_blocked', async () => {
    const id = manager.clusters.create({ name: 'edge', profile: 'development' }, 'test').id;
    const e = await manager.profiles.evaluate(id);
    const r = rule(e.rules, 'catalog_valid');
    expect(r.status).toBe('fail');
    const line =
      files
        .find((f) => f.file === 'etcd.yaml')!
        .text.split('\n')
        .findIndex((l) => l.includes('digest: sha256:a45de166')) + 1;
    expect(r.reason?.en).toBe(
      `the catalog is invalid: etcd.yaml: versions[0].artifacts[0].platforms.amd64.digest (line ${line}): a digest is sha256:<64 lowercase hex digits>`,
    );
    await manager.accounts.addUser('olga', 'operator', 'correct horse battery', 'test');
    const token = manager.accounts.createApiToken('olga', 'test');
    const res = await consoleApi().handle(manager, {
      method: 'POST',
      path: `/api/v1/clusters/${id}/components`,
      query: new URLSearchParams(),
      body: { name: 'kv', spec: { component: 'etcd', version: '3.4.23-1' } },
      credentials: { bearer: token },
    });
    expect(res.status).toBe(409);
    expect((res.body as any).error.code).toBe('profile_blocked');
    expect(JSON.stringify((res.body as any).error.details)).toContain('catalog_valid');
  });
});

describeNeeding('the preflight looks up a catalog version in the mirror by its keys', [registryAvailable()], () => {
  let t: TestManager;
  let reg: TestRegistry;
  const dir = tempDir();
  beforeAll(async () => {
    t = testManager();
    reg = await startRegistry();
    t.manager.reports.setMirror({ url: reg.url, ca_pem: reg.caPem }, 'test');
  });
  afterAll(async () => {
    await reg?.stop();
    t?.close();
    dir.remove();
  });

  test('missing before the bundle is imported, found and matching the pins after; OPA is unavailable', async () => {
    const id = t.manager.clusters.create({ name: 'hosts', profile: 'development' }, 'test').id;
    t.manager.commands.issue(id, 'managedcomponent.apply', { name: 'kv', spec: { component: 'etcd', version: '3.4.23-1' } }, 'test');
    t.manager.commands.issue(id, 'managedcomponent.apply', { name: 'policy', spec: { component: 'opa', version: '1.21.3-1' } }, 'test');
    const check = async (name: string): Promise<CheckResult> =>
      (await t.manager.preflight.run(id, { trigger: 'on_demand', actor: 'test' })).checks.find((c) => c.id === `mirror.artifacts.${name}`)!;

    const before = await check('kv');
    expect(before.status).toBe('fail');
    expect(before.reason?.en).toBe('etcd:etcd@3.4.23-1 (amd64) is not in the mirror; etcd:etcdctl@3.4.23-1 (amd64) is not in the mirror');
    const opa = await check('policy');
    expect(opa.status).toBe('fail');
    expect(opa.reason?.en).toMatch(/^opa:opa@1\.21\.3-1 \(amd64\) is unavailable: No OPA binary/);

    const release = releaseSigner();
    const out = join(dir.path, 'etcd.tar');
    await buildBundle({ catalog: loadCatalogDir(CATALOG_DIR), out, signer: release, builderVersion: 'test', services: ['etcd'] });
    const client = new OciClient({ url: reg.url, ca_pem: reg.caPem });
    await importBundle({ file: out, client, trustedKeys: new Map([[release.keyId, release.publicKey]]), impl: nodeEd25519 });
    client.close();

    const after = await check('kv');
    expect(after.status, JSON.stringify(after.evidence)).toBe('pass');
    expect((after.evidence as any).lookups).toEqual([
      expect.objectContaining({
        key: 'etcd:etcd@3.4.23-1',
        file: 'sha256:a45de16600eafc57939b84013b0522c4670435471eb4073dd963d01e0eb5a217',
      }),
      expect.objectContaining({
        key: 'etcd:etcdctl@3.4.23-1',
        file: 'sha256:b38b6112aaa3d6056e4cd39d2f9769d84c9ae1fd729513ab473ee66f597d8934',
      }),
    ]);
  }, 60_000);
});
