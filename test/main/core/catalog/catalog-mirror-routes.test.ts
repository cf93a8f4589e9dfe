// The console API for the catalog and the mirror: GET /api/v1/catalog and /catalog/{service} on the shipped
// files; bundle imports started from a path, followed live and recorded; what the mirror holds per version.
import { copyFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Credentials } from '../../../../main/core/http/router';
import { buildBundle } from '../../../../main/core/bundle/bundle-build';
import { blobEntry } from '../../../../main/core/bundle/bundle-format';
import { loadCatalogDir } from '../../../../main/core/catalog/catalog-loader';
import type { CoreEvent } from '../../../../main/core/events';
import { publicKeyToPem } from '../../../../main/wire/public-key-pem';
import { releaseSigner, rewriteTar } from '../../../support/bundles';
import { REPO_ROOT } from '../../../support/cli';
import { testManager, type TestManager } from '../../../support/manager';
import { registryAvailable, startRegistry, type TestRegistry } from '../../../support/registry';
import { describeNeeding } from '../../../support/needs';
import { tempDir } from '../../../support/temp-dir';

describe('GET /api/v1/catalog', () => {
  let t: TestManager;
  let viewer: Credentials;
  beforeAll(async () => {
    t = testManager();
    viewer = await t.login('vic', 'viewer');
  });
  afterAll(() => t?.close());

  test('lists every service with its versions, artifact keys and whether a bundle can carry them', async () => {
    const res = await t.call('GET', '/api/v1/catalog', undefined, viewer);
    expect(res.status).toBe(200);
    const body = res.body as any;
    expect(body.valid).toBe(true);
    expect(body.services.map((s: any) => s.service)).toEqual(['etcd', 'mariadb', 'nats', 'node-exporter', 'opa', 'openfga', 'postgresql']);
    const etcd = body.services[0];
    expect(etcd).toMatchObject({
      stateful: true,
      backup: true,
      checks: { liveness: 'etcd.health', readiness: 'etcd.cluster', functional: 'etcd.kv' },
    });
    expect(etcd.versions[1]).toMatchObject({
      version: '3.4.23-2',
      upstream: '3.4.23',
      bundleable: { amd64: true },
      upgrade: { from: ['3.4.23-1'], stateful: true, rollback: { possible: true } },
    });
    expect(etcd.versions[0].artifacts[0]).toMatchObject({
      key: 'etcd:etcd@3.4.23-1',
      repository: 'navin/etcd/etcd',
      tag: '3.4.23-1',
      platforms: [
        { architecture: 'amd64', available: true, digest: 'sha256:a45de16600eafc57939b84013b0522c4670435471eb4073dd963d01e0eb5a217' },
      ],
    });
    const opa = body.services.find((s: any) => s.service === 'opa');
    expect(opa.versions.map((v: any) => v.bundleable.amd64)).toEqual([false, false]);
    expect(opa.versions[0].artifacts[0].platforms[0]).toMatchObject({ available: false, reason: expect.stringMatching(/No OPA binary/) });
  });

  test('one service in full: templates, preflight, checks and backup; an unknown one is 404', async () => {
    const res = await t.call('GET', '/api/v1/catalog/nats', undefined, viewer);
    expect(res.status).toBe(200);
    const nats = res.body as any;
    expect(nats.unit.name).toBe('navin-nats.service');
    expect(nats.files[0].content).toContain('jetstream {');
    expect(nats.preflight).toMatchObject({ free_ports: ['client', 'cluster', 'monitor'], tools: expect.arrayContaining(['tar']) });
    expect(nats.backup.files).toEqual([expect.objectContaining({ name: 'jetstream' })]);
    expect(nats.resolved_versions[0].artifacts[0].key).toBe('nats:nats-server@2.9.10-1');
    expect((await t.call('GET', '/api/v1/catalog/mysql', undefined, viewer)).status).toBe(404);
    expect((await t.call('GET', '/api/v1/catalog')).status).toBe(401);
  });

  test('without a mirror configured the mirror listing says so', async () => {
    expect((await t.call('GET', '/api/v1/mirror', undefined, viewer)).body).toMatchObject({ error: { code: 'mirror_not_configured' } });
  });
});

describeNeeding('bundle imports through the API', [registryAvailable()], () => {
  let t: TestManager;
  let reg: TestRegistry;
  let admin: Credentials;
  let viewer: Credentials;
  const dir = tempDir();
  const release = releaseSigner();
  let bundle: string;
  const events: CoreEvent[] = [];

  beforeAll(async () => {
    t = testManager();
    reg = await startRegistry();
    admin = await t.login('ada', 'admin');
    viewer = await t.login('vic', 'viewer');
    t.manager.events.subscribe((e) => events.push(e));
    expect((await t.call('PUT', '/api/v1/settings/mirror', { url: reg.url, ca_pem: reg.caPem }, admin)).status).toBe(200);
    // Over the API (not our own window's IPC) a bundle is read only from the data dir's imports folder.
    bundle = join(t.dataDir, 'imports', 'nats.tar');
    await buildBundle({
      catalog: loadCatalogDir(join(REPO_ROOT, 'resources/catalog')),
      out: bundle,
      signer: release,
      builderVersion: 'test',
      services: ['nats'],
    });
  });
  afterAll(async () => {
    await reg?.stop();
    t?.close();
    dir.remove();
  });

  const finished = async (id: string): Promise<any> => {
    for (let i = 0; i < 300; i++) {
      const r = (await t.call('GET', `/api/v1/mirror/imports/${id}`, undefined, viewer)).body as any;
      if (r.state !== 'running') return r;
      await new Promise((res) => setTimeout(res, 50));
    }
    throw new Error('the import did not end');
  };

  test('an untrusted bundle is refused; once its release key is trusted it imports, live, and the mirror lists it', async () => {
    const first = await t.call('POST', '/api/v1/mirror/imports', { path: bundle }, admin);
    expect(first.status).toBe(202);
    const refused = await finished((first.body as any).id);
    expect(refused).toMatchObject({
      state: 'refused',
      code: 'bundle_signature_invalid',
      message: expect.stringMatching(/no release key is trusted yet/),
    });

    const pem = publicKeyToPem(release.publicKey);
    expect((await t.call('POST', '/api/v1/settings/release-keys', { public_key_pem: pem, label: 'test release' }, admin)).status).toBe(201);
    const started = await t.call('POST', '/api/v1/mirror/imports', { path: bundle }, admin);
    expect(started).toMatchObject({ status: 202, body: { state: 'running', bundle_file: bundle, started_by: 'ada' } });
    // One at a time.
    expect((await t.call('POST', '/api/v1/mirror/imports', { path: bundle }, admin)).body).toMatchObject({
      error: { code: 'import_running' },
    });
    const done = await finished((started.body as any).id);
    expect(done).toMatchObject({
      state: 'done',
      code: null,
      key_id: release.keyId,
      result: { items: [expect.objectContaining({ key: 'nats:nats-server@2.9.10-1' })] },
    });
    const progress = events
      .filter((e) => e.type === 'mirror.import.progress' && (e.data as any).id === (started.body as any).id)
      .map((e) => e.data as any);
    expect(progress.at(-1)).toMatchObject({ phase: 'done', tags_done: 1, tags_total: 1 });

    const mirror = (await t.call('GET', '/api/v1/mirror', undefined, viewer)).body as any;
    expect(mirror.artifacts).toEqual([expect.objectContaining({ key: 'nats:nats-server@2.9.10-1', catalog: 'pinned' })]);
    const list = (await t.call('GET', '/api/v1/mirror/imports', undefined, viewer)).body as any;
    expect(list.items.map((i: any) => i.state)).toEqual(['done', 'refused']);
    expect(t.manager.store.audit.list({ action: 'mirror.import' }).map((a) => a.details.outcome)).toEqual(
      expect.arrayContaining(['done', 'refused']),
    );
  });

  test('a tampered bundle is refused with digest_mismatch; a relative path, a missing file and a viewer are refused at once', async () => {
    const tampered = join(t.dataDir, 'imports', 'tampered.tar');
    const entry = blobEntry('sha256:99bc0bf81d296f1f7d96091643825168f9fbe03343a88afe8f253f8e136a0182');
    await rewriteTar(bundle, tampered, (e) =>
      e.name === entry ? { ...e, body: Buffer.concat([e.body.subarray(0, 100), Buffer.from('x'), e.body.subarray(101)]) } : e,
    );
    const r = await t.call('POST', '/api/v1/mirror/imports', { path: tampered }, admin);
    expect(await finished((r.body as any).id)).toMatchObject({ state: 'refused', code: 'digest_mismatch' });
    expect((await t.call('POST', '/api/v1/mirror/imports', { path: 'bundle.tar' }, admin)).status).toBe(400);
    expect((await t.call('POST', '/api/v1/mirror/imports', { path: join(t.dataDir, 'imports', 'none.tar') }, admin)).body).toMatchObject({
      error: { code: 'bundle_not_found' },
    });
    expect((await t.call('POST', '/api/v1/mirror/imports', { path: bundle }, viewer)).status).toBe(403);
    expect((await t.call('POST', '/api/v1/mirror/imports', { path: bundle, allow_downgrade: 'yes' }, admin)).body).toMatchObject({
      error: { code: 'invalid_field', message: expect.stringContaining('allow_downgrade') },
    });
  });

  test('over the API a bundle outside the imports folder is refused import_path_not_allowed, through a link too, and whether it exists or not; from our own window any file', async () => {
    const outside = join(dir.path, 'elsewhere.tar');
    copyFileSync(bundle, outside);
    const link = join(t.dataDir, 'imports', 'link.tar');
    symlinkSync(outside, link);
    const before = t.manager.mirror.imports().length;
    for (const path of [outside, link, join(t.dataDir, 'imports', '..', 'navin.db'), '/etc/shadow', join(dir.path, 'none.tar')]) {
      const r = await t.call('POST', '/api/v1/mirror/imports', { path }, admin);
      expect(r.status, path).toBe(403);
      expect(r.body, path).toMatchObject({
        error: { code: 'import_path_not_allowed', message: expect.stringContaining(join(t.dataDir, 'imports')) },
      });
    }
    expect(t.manager.mirror.imports()).toHaveLength(before);
    // The desktop console's IPC: the file the user picked on this workstation.
    const own = await t.call('POST', '/api/v1/mirror/imports', { path: outside }, { ...admin, trustedChannel: true });
    expect(own.status).toBe(202);
    expect(await finished((own.body as any).id)).toMatchObject({ state: 'done', bundle_file: outside });
  });
});
