// Offline bundles end to end in the core: built from the catalog's Debian sources and signed by a release key,
// imported into a real registry (Distribution 2.8) after every check, read back by skopeo; each way a bundle is
// damaged or forged is refused with its code before any tag is written.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildBundle, type BuildResult } from '../../../../main/core/bundle/bundle-build';
import { BundleError } from '../../../../main/core/bundle/bundle-errors';
import { blobEntry, BUNDLE_MANIFEST } from '../../../../main/core/bundle/bundle-format';
import { importBundle, type ImportProgress } from '../../../../main/core/bundle/bundle-import';
import { parseCatalog, readCatalogDir } from '../../../../main/core/catalog/catalog-loader';
import { pullArtifactFile } from '../../../../main/core/mirror/artifacts';
import { mirrorInventory } from '../../../../main/core/mirror/mirror-inventory';
import { OciClient } from '../../../../main/core/mirror/oci-client';
import { nodeEd25519 } from '../../../../main/wire/ed25519-node';
import type { Signer } from '../../../../main/wire/envelope';
import { releaseSigner, rewriteTar, truncatedCopy } from '../../../support/bundles';
import { REPO_ROOT } from '../../../support/cli';
import { registryAvailable, skopeoAvailable, skopeoInspect, startRegistry, type TestRegistry } from '../../../support/registry';
import { tempDir } from '../../../support/temp-dir';
import { describeNeeding, type Availability } from '../../../support/needs';

const run = promisify(execFile);
// The shipped catalog less the databases: these tests are about files taken from installed packages; the
// databases' .deb artifacts cross in the booted hosts' test (databases.hosts.test.ts).
const catalog = parseCatalog(
  readCatalogDir(join(REPO_ROOT, 'resources/catalog')).filter((f) => f.file !== 'postgresql.yaml' && f.file !== 'mariadb.yaml'),
);
const debianHere = existsSync('/usr/bin/etcd') && existsSync('/usr/sbin/nats-server') && existsSync('/usr/bin/prometheus-node-exporter');
const debianFiles: Availability = debianHere
  ? { ok: true }
  : { ok: false, reason: 'the Debian files of etcd, nats-server and prometheus-node-exporter are not installed' };
const trustOf = (s: Signer): Map<string, Uint8Array> => new Map([[s.keyId, s.publicKey]]);

describeNeeding('offline bundles', [registryAvailable(), debianFiles], () => {
  const dir = tempDir();
  const release = releaseSigner();
  let reg: TestRegistry;
  let client: OciClient;
  let small: BuildResult;

  const tagsOf = async (c: OciClient, result: BuildResult): Promise<string[]> =>
    (await Promise.all(result.items.map(async (i) => (await c.tags(i.repository)).map((t) => `${i.repository}:${t}`)))).flat();

  beforeAll(async () => {
    reg = await startRegistry();
    client = new OciClient({ url: reg.url, ca_pem: reg.caPem });
    small = await buildBundle({ catalog, out: join(dir.path, 'nats.tar'), signer: release, builderVersion: 'test', services: ['nats'] });
  });
  afterAll(async () => {
    client?.close();
    await reg?.stop();
    dir.remove();
  });

  test('build → import → list → pull → skopeo: every available artifact of the catalog crosses, OPA and OpenFGA do not', async () => {
    const out = join(dir.path, 'all.tar');
    const built = await buildBundle({ catalog, out, signer: release, builderVersion: 'test' });
    expect(built.items.map((i) => i.key).sort()).toEqual([
      'etcd:etcd@3.4.23-1',
      'etcd:etcd@3.4.23-2',
      'etcd:etcdctl@3.4.23-1',
      'etcd:etcdctl@3.4.23-2',
      'nats:nats-server@2.9.10-1',
      'node-exporter:node-exporter@1.5.0-1',
      'node-exporter:node-exporter@1.5.0-2',
    ]);
    expect(built.not_included.map((n) => n.key).sort()).toEqual(['opa:opa@1.21.3-1', 'opa:opa@1.21.4-1', 'openfga:openfga@1.5.8-1']);
    expect(built.not_included[0]!.reason).toMatch(/No OPA binary/);
    // The etcd and node exporter binaries are in the tar once although two versions carry each.
    const sizes = 21529688 + 17157344 + 11443384 + 13703864;
    expect(statSync(out).size).toBeGreaterThan(sizes);
    expect(statSync(out).size).toBeLessThan(sizes + 200_000);

    const progress: ImportProgress[] = [];
    const result = await importBundle({
      file: out,
      client,
      trustedKeys: trustOf(release),
      impl: nodeEd25519,
      onProgress: (p) => progress.push(p),
    });
    expect(result.bundle_id).toBe(built.bundle_id);
    expect(result.key_id).toBe(release.keyId);
    expect(result.items).toHaveLength(7);
    expect(progress[0]!.phase).toBe('verifying');
    expect(progress.at(-1)).toMatchObject({ phase: 'done', bytes_done: statSync(out).size, tags_done: 7 });
    expect(progress.some((p) => p.phase === 'uploading' && p.bytes_done > 0 && p.bytes_done < p.bytes_total)).toBe(true);

    const inventory = await mirrorInventory(client, catalog);
    expect(inventory.artifacts.map((a) => [a.key, a.catalog])).toEqual([
      ['etcd:etcd@3.4.23-1', 'pinned'],
      ['etcd:etcd@3.4.23-2', 'pinned'],
      ['etcd:etcdctl@3.4.23-1', 'pinned'],
      ['etcd:etcdctl@3.4.23-2', 'pinned'],
      ['nats:nats-server@2.9.10-1', 'pinned'],
      ['node-exporter:node-exporter@1.5.0-1', 'pinned'],
      ['node-exporter:node-exporter@1.5.0-2', 'pinned'],
    ]);

    const etcd = catalog.artifacts('etcd', '3.4.23-2').find((a) => a.name === 'etcd')!;
    const pulled = join(dir.path, 'etcd');
    await pullArtifactFile(client, etcd, 'amd64', pulled);
    expect(readFileSync(pulled).equals(readFileSync('/usr/bin/etcd'))).toBe(true);

    if (skopeoAvailable()) {
      const item = result.items.find((i) => i.key === 'nats:nats-server@2.9.10-1')!;
      const index = await skopeoInspect(reg, `${item.repository}:${item.tag}`, { raw: true });
      expect(index.annotations['ai.navin.artifact.key']).toBe('nats:nats-server@2.9.10-1');
      const manifest = await skopeoInspect(reg, `${item.repository}@${index.manifests[0].digest}`, { raw: true });
      expect(manifest.layers[0].digest).toBe('sha256:99bc0bf81d296f1f7d96091643825168f9fbe03343a88afe8f253f8e136a0182');
      const copy = join(dir.path, 'skopeo-nats');
      await run('skopeo', [
        'copy',
        '--src-cert-dir',
        reg.certDir,
        `docker://${reg.host}/${item.repository}@${index.manifests[0].digest}`,
        `dir:${copy}`,
      ]);
      expect(
        readFileSync(join(copy, '99bc0bf81d296f1f7d96091643825168f9fbe03343a88afe8f253f8e136a0182')).equals(
          readFileSync('/usr/sbin/nats-server'),
        ),
      ).toBe(true);
    }
    // Imported again: nothing new to send, every byte still checked.
    const again = await importBundle({ file: out, client, trustedKeys: trustOf(release), impl: nodeEd25519 });
    expect(again.blobs_uploaded).toBe(0);
    expect(again.items.map((i) => i.digest)).toEqual(result.items.map((i) => i.digest));
  }, 120_000);

  test.runIf(skopeoAvailable())('the bundle is an OCI layout: skopeo copies an artifact straight out of the tar', async () => {
    const copy = join(dir.path, 'from-archive');
    await run('skopeo', ['copy', '--all', `oci-archive:${small.file}:navin/nats/nats-server:2.9.10-1`, `dir:${copy}`]);
    expect(existsSync(join(copy, '99bc0bf81d296f1f7d96091643825168f9fbe03343a88afe8f253f8e136a0182'))).toBe(true);
  });

  describe('refusals, each before any tag is written', () => {
    const refused = async (file: string, code: string, trusted = trustOf(release)): Promise<BundleError> => {
      const c = fresh();
      const err = await importBundle({ file, client: c, trustedKeys: trusted, impl: nodeEd25519 }).catch((e) => e);
      expect(err, String(err)).toBeInstanceOf(BundleError);
      expect(err.code).toBe(code);
      expect(await tagsOf(c, small)).toEqual([]);
      c.close();
      return err;
    };
    // Each refusal imports under its own repository prefix, so the round trip's tags cannot hide a new one.
    let n = 0;
    const fresh = (): OciClient => new OciClient({ url: `${reg.url}/refusal-${++n}`, ca_pem: reg.caPem });

    test('a bundle signed by a key that is not trusted: bundle_signature_invalid (key_unknown)', async () => {
      const err = await refused(small.file, 'bundle_signature_invalid', trustOf(releaseSigner()));
      expect(err.details).toMatchObject({ verify_code: 'key_unknown' });
      const none = await refused(small.file, 'bundle_signature_invalid', new Map());
      expect(none.message).toMatch(/no release key is trusted yet/);
    });

    test('a signed manifest edited after signing: bundle_signature_invalid', async () => {
      const file = join(dir.path, 'edited.tar');
      await rewriteTar(small.file, file, (e) =>
        e.name === BUNDLE_MANIFEST
          ? { ...e, body: Buffer.from(e.body.toString('utf8').replace('"nats:nats-server@2.9.10-1"', '"nats:nats-server@2.9.11-1"')) }
          : e,
      );
      const err = await refused(file, 'bundle_signature_invalid');
      expect(err.details).toMatchObject({ verify_code: 'signature_invalid' });
    });

    test('one byte of the binary changed: digest_mismatch, and the changed blob is not in the mirror', async () => {
      const file = join(dir.path, 'tampered.tar');
      const entry = blobEntry('sha256:99bc0bf81d296f1f7d96091643825168f9fbe03343a88afe8f253f8e136a0182');
      await rewriteTar(small.file, file, (e) => {
        if (e.name !== entry) return e;
        const body = Buffer.from(e.body);
        body.writeUInt8(body.readUInt8(4_000_000) ^ 1, 4_000_000);
        return { ...e, body };
      });
      const c = fresh();
      const err = await importBundle({ file, client: c, trustedKeys: trustOf(release), impl: nodeEd25519 }).catch((e) => e);
      expect(err.code).toBe('digest_mismatch');
      expect(err.message).toContain(entry);
      expect(
        await c.blobSize('navin/nats/nats-server', 'sha256:99bc0bf81d296f1f7d96091643825168f9fbe03343a88afe8f253f8e136a0182'),
      ).toBeNull();
      expect(await c.tags('navin/nats/nats-server')).toEqual([]);
      c.close();
    });

    test('an index.json that is not the signed one: digest_mismatch', async () => {
      const file = join(dir.path, 'index.tar');
      await rewriteTar(small.file, file, (e) =>
        e.name === 'index.json' ? { ...e, body: Buffer.from(e.body.toString().replace('2.9.10-1', '2.9.10-9')) } : e,
      );
      await refused(file, 'digest_mismatch');
    });

    test('cut in the middle of the binary: bundle_truncated', async () => {
      const file = join(dir.path, 'cut.tar');
      truncatedCopy(small.file, file, Math.floor(statSync(small.file).size / 2));
      await refused(file, 'bundle_truncated');
    });

    test('a well-formed tar that lacks its last blob: bundle_truncated', async () => {
      const file = join(dir.path, 'short.tar');
      await rewriteTar(small.file, file, (e, all) => (e === all.at(-1) ? null : e));
      const err = await refused(file, 'bundle_truncated');
      expect(err.message).toMatch(/ends before 1 of its \d+ blobs/);
    });

    test('cut inside the signed manifest: bundle_truncated', async () => {
      const file = join(dir.path, 'cut-early.tar');
      truncatedCopy(small.file, file, 900);
      await refused(file, 'bundle_truncated');
    });

    test('an entry the manifest does not list, or no signed manifest first: bundle_malformed', async () => {
      const extra = join(dir.path, 'extra.tar');
      await rewriteTar(small.file, extra, (e) =>
        e.name === 'oci-layout' ? [e, { name: 'run-me.sh', type: 'file', body: Buffer.from('#!/bin/sh\n') }] : e,
      );
      await refused(extra, 'bundle_malformed');
      const headless = join(dir.path, 'headless.tar');
      await rewriteTar(small.file, headless, (e) => (e.name === BUNDLE_MANIFEST ? null : e));
      await refused(headless, 'bundle_malformed');
      const garbage = join(dir.path, 'garbage.tar');
      truncatedCopy(join(REPO_ROOT, 'package.json'), garbage, 600);
      await expect(
        importBundle({ file: garbage, client: fresh(), trustedKeys: trustOf(release), impl: nodeEd25519 }),
      ).rejects.toMatchObject({
        code: expect.stringMatching(/^bundle_(malformed|truncated)$/),
      });
    });
  });

  test('the build refuses a source that is not the catalog pin, and a service whose artifacts are unavailable', async () => {
    await expect(
      buildBundle({
        catalog,
        out: join(dir.path, 'x.tar'),
        signer: release,
        builderVersion: 'test',
        services: ['nats'],
        packageVersion: () => '2.9.10-1+b2',
      }),
    ).rejects.toMatchObject({
      code: 'artifact_source_mismatch',
      message: expect.stringMatching(/nats-server 2\.9\.10-1\+b3, but this machine has nats-server 2\.9\.10-1\+b2/),
    });
    await expect(
      buildBundle({ catalog, out: join(dir.path, 'y.tar'), signer: release, builderVersion: 'test', services: ['opa'] }),
    ).rejects.toMatchObject({
      code: 'artifact_unavailable',
      message: expect.stringMatching(/opa 1\.21\.3-1 cannot be bundled: opa:opa@1\.21\.3-1 \(amd64\) is unavailable: No OPA binary/),
    });
    expect(existsSync(join(dir.path, 'x.tar')) || existsSync(join(dir.path, 'y.tar'))).toBe(false);
  });
});
