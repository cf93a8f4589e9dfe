// The manager's OCI distribution client against a real registry (Debian's docker-registry, Distribution 2.8):
// push, list, pull and verify; chunked uploads; two versions side by side; every read checked against its
// digest, even when the registry's own storage is corrupted; skopeo reads what we pushed.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Catalog } from '../../../../main/core/catalog/catalog';
import { artifactContent } from '../../../../main/core/mirror/artifact-manifest';
import { pullArtifactFile, pushContent } from '../../../../main/core/mirror/artifacts';
import { mirrorInventory } from '../../../../main/core/mirror/mirror-inventory';
import { MirrorError } from '../../../../main/core/mirror/mirror-errors';
import { OciClient, sha256Digest } from '../../../../main/core/mirror/oci-client';
import { registryAvailable, skopeoAvailable, skopeoInspect, startRegistry, type TestRegistry } from '../../../support/registry';
import { describeNeeding } from '../../../support/needs';
import { tempDir } from '../../../support/temp-dir';
import { closedPort, testCas } from '../../../support/tls-endpoints';

const run = promisify(execFile);
const available = registryAvailable();

/** A two-version catalog of one synthetic file artifact, for content that is not a real binary. */
function toolCatalog(files: Record<string, Buffer>): Catalog {
  const versions = Object.entries(files).map(([version, bytes]) => ({
    version,
    upstream: version.split('-')[0]!,
    settings: {},
    artifacts: [
      {
        name: 'tool',
        mode: '0755',
        platforms: {
          amd64: {
            available: true as const,
            digest: sha256Digest(bytes),
            size: bytes.length,
            source: { debian: { package: 'tool', version: '1', path: '/usr/bin/tool' } },
          },
        },
      },
    ],
  }));
  return new Catalog([{ service: 'demo', versions } as never], []);
}

/** The blob file of a digest in the registry's filesystem storage. */
const storedBlob = (reg: TestRegistry, digest: string): string => {
  const hex = digest.replace('sha256:', '');
  return join(reg.storageDir, 'docker/registry/v2/blobs/sha256', hex.slice(0, 2), hex, 'data');
};

describeNeeding('OCI client against Distribution 2.8', [available], () => {
  let reg: TestRegistry;
  let client: OciClient;
  const dir = tempDir();

  beforeAll(async () => {
    reg = await startRegistry();
    client = new OciClient({ url: reg.url, ca_pem: reg.caPem });
  });
  afterAll(async () => {
    client?.close();
    await reg?.stop();
    dir.remove();
  });

  test('the registry answers the API version check', async () => {
    expect(await client.ping()).toEqual({ api_version: 'registry/2.0' });
  });

  test('a blob larger than the chunk size goes up in ordered PATCHes, a small one in one PUT, and both come back verified', async () => {
    const big = randomBytes(5 * 1024 * 1024 + 123);
    const small = randomBytes(2000);
    const bigD = { digest: sha256Digest(big), size: big.length };
    const smallD = { digest: sha256Digest(small), size: small.length };
    const chunked = await client.pushBlob('navin/test/blobs', bigD, big, { chunkSize: 1024 * 1024 });
    expect(chunked).toMatchObject({ uploaded: true, chunks: 6 });
    expect(await client.pushBlob('navin/test/blobs', smallD, small)).toMatchObject({ uploaded: true, chunks: 1 });
    expect(await client.blobSize('navin/test/blobs', bigD.digest)).toBe(big.length);
    // Pushed again: found, not re-sent, but the source is still read and checked.
    let read = 0;
    expect(await client.pushBlob('navin/test/blobs', bigD, big, { onBytes: (n) => (read += n) })).toMatchObject({
      uploaded: false,
      chunks: 0,
    });
    expect(read).toBe(big.length);
    const file = join(dir.path, 'big.bin');
    await client.downloadBlob('navin/test/blobs', bigD.digest, file, bigD.size);
    expect(readFileSync(file).equals(big)).toBe(true);
    expect((await client.readBlob('navin/test/blobs', smallD.digest)).equals(small)).toBe(true);
  });

  test('bytes that are not the announced digest are refused before the upload is committed', async () => {
    const bytes = randomBytes(3 * 1024 * 1024);
    const claimed = { digest: sha256Digest(randomBytes(10)), size: bytes.length };
    const err = await client.pushBlob('navin/test/refused', claimed, bytes, { chunkSize: 1024 * 1024 }).catch((e) => e);
    expect(err).toBeInstanceOf(MirrorError);
    expect(err.code).toBe('digest_mismatch');
    expect(await client.blobSize('navin/test/refused', claimed.digest)).toBeNull();
    expect(await client.blobSize('navin/test/refused', sha256Digest(bytes))).toBeNull();
  });

  test('two versions of one artifact live side by side, are listed, pulled and checked against the catalog pin', async () => {
    const v1 = randomBytes(300_000);
    const v2 = randomBytes(400_000);
    const catalog = toolCatalog({ '1.0.0-1': v1, '1.0.0-2': v2 });
    for (const [version, bytes] of [
      ['1.0.0-1', v1],
      ['1.0.0-2', v2],
    ] as const) {
      const a = catalog.artifacts('demo', version)[0]!;
      const p = a.platforms[0]!;
      if (!p.available) throw new Error('unavailable');
      const content = artifactContent(a.mirrorKey, a.upstream, [
        { architecture: 'amd64', os: 'linux', file: { name: 'tool', digest: p.digest, size: p.size, mode: 0o755 } },
      ]);
      await pushContent(client, a.repository, a.tag, content, () => bytes);
    }
    expect((await client.tags('navin/demo/tool')).sort()).toEqual(['1.0.0-1', '1.0.0-2']);
    expect(await client.repositories()).toContain('navin/demo/tool');

    for (const [version, bytes] of [
      ['1.0.0-1', v1],
      ['1.0.0-2', v2],
    ] as const) {
      const a = catalog.artifacts('demo', version)[0]!;
      const dest = join(dir.path, `tool-${version}`);
      const found = await pullArtifactFile(client, a, 'amd64', dest);
      expect(readFileSync(dest).equals(bytes)).toBe(true);
      expect(found.file.name).toBe('tool');
    }

    const inventory = await mirrorInventory(client, catalog);
    const demo = inventory.artifacts.filter((e) => e.service === 'demo');
    expect(demo.map((e) => [e.key, e.catalog, e.platforms[0]?.file_digest])).toEqual([
      ['demo:tool@1.0.0-1', 'pinned', sha256Digest(v1)],
      ['demo:tool@1.0.0-2', 'pinned', sha256Digest(v2)],
    ]);
    // A catalog pinning other bytes for that key says so.
    const other = await mirrorInventory(client, toolCatalog({ '1.0.0-1': v2 }));
    expect(other.artifacts.find((e) => e.key === 'demo:tool@1.0.0-1')?.catalog).toBe('differs');
  });

  test.runIf(skopeoAvailable())(
    'skopeo, an independent client, reads the index and manifest we pushed and copies the file out intact',
    async () => {
      const bytes = randomBytes(250_000);
      const catalog = toolCatalog({ '2.0.0-1': bytes });
      const a = catalog.artifacts('demo', '2.0.0-1')[0]!;
      const p = a.platforms[0]!;
      if (!p.available) throw new Error('unavailable');
      const content = artifactContent(a.mirrorKey, a.upstream, [
        { architecture: 'amd64', os: 'linux', file: { name: 'tool', digest: p.digest, size: p.size, mode: 0o755 } },
      ]);
      const { digest } = await pushContent(client, a.repository, a.tag, content, () => bytes);
      const index = await skopeoInspect(reg, `${a.repository}:${a.tag}`, { raw: true });
      expect(index.manifests).toEqual([
        expect.objectContaining({ digest: content.manifests[0]!.digest, platform: { architecture: 'amd64', os: 'linux' } }),
      ]);
      expect(index.annotations['ai.navin.artifact.key']).toBe('demo:tool@2.0.0-1');
      const manifest = await skopeoInspect(reg, `${a.repository}@${content.manifests[0]!.digest}`, { raw: true });
      expect(manifest.layers[0]).toMatchObject({
        digest: p.digest,
        size: p.size,
        annotations: { 'org.opencontainers.image.title': 'tool' },
      });
      // skopeo verifies every blob it copies against its digest.
      const out = join(dir.path, 'skopeo-out');
      await run('skopeo', ['copy', '--src-cert-dir', reg.certDir, `docker://${reg.host}/${a.repository}@${digest}`, `dir:${out}`]);
      expect(readFileSync(join(out, p.digest.replace('sha256:', ''))).equals(bytes)).toBe(true);
    },
  );

  test('a blob corrupted in the registry storage is refused on read with digest_mismatch, and no file is left', async () => {
    const bytes = randomBytes(100_000);
    const d = { digest: sha256Digest(bytes), size: bytes.length };
    await client.pushBlob('navin/test/corrupt', d, bytes);
    const stored = storedBlob(reg, d.digest);
    expect(existsSync(stored)).toBe(true);
    const bad = Buffer.from(bytes);
    bad.writeUInt8(bad.readUInt8(5000) ^ 0xff, 5000);
    writeFileSync(stored, bad);
    const dest = join(dir.path, 'corrupt.bin');
    const err = await client.downloadBlob('navin/test/corrupt', d.digest, dest, d.size).catch((e) => e);
    expect(err).toMatchObject({ code: 'digest_mismatch' });
    expect(existsSync(dest)).toBe(false);
    expect(readdirSync(dir.path).filter((n) => n.includes('corrupt'))).toEqual([]);
    await expect(client.readBlob('navin/test/corrupt', d.digest)).rejects.toMatchObject({ code: 'digest_mismatch' });
  });

  test('a manifest corrupted in the registry storage is refused on read, by tag and by digest', async () => {
    const bytes = randomBytes(1000);
    const catalog = toolCatalog({ '3.0.0-1': bytes });
    const a = catalog.artifacts('demo', '3.0.0-1')[0]!;
    const p = a.platforms[0]!;
    if (!p.available) throw new Error('unavailable');
    const content = artifactContent(a.mirrorKey, a.upstream, [
      { architecture: 'amd64', os: 'linux', file: { name: 'tool', digest: p.digest, size: p.size, mode: 0o755 } },
    ]);
    await pushContent(client, a.repository, a.tag, content, () => bytes);
    const stored = storedBlob(reg, content.index.digest);
    writeFileSync(stored, readFileSync(stored).toString('utf8').replace('3.0.0-1', '3.0.0-9'));
    await expect(client.getManifest(a.repository, content.index.digest)).rejects.toMatchObject({ code: 'digest_mismatch' });
    await expect(client.getManifest(a.repository, a.tag)).rejects.toMatchObject({ code: 'digest_mismatch' });
    await expect(pullArtifactFile(client, a, 'amd64', join(dir.path, 'x'))).rejects.toMatchObject({ code: 'digest_mismatch' });
  });

  test('a missing tag is mirror_not_found; an unknown repository has no tags', async () => {
    await expect(client.getManifest('navin/demo/tool', '9.9.9-1')).rejects.toMatchObject({ code: 'mirror_not_found' });
    expect(await client.headManifest('navin/demo/tool', '9.9.9-1')).toBeNull();
    expect(await client.tags('navin/nothing/here')).toEqual([]);
  });

  test('an untrusted certificate and a closed port fail with their codes', async () => {
    const untrusted = new OciClient({ url: reg.url, ca_pem: testCas().other.certPem });
    await expect(untrusted.ping()).rejects.toMatchObject({ code: 'mirror_tls_untrusted' });
    untrusted.close();
    const closed = new OciClient({ url: `https://127.0.0.1:${await closedPort()}`, ca_pem: reg.caPem });
    await expect(closed.ping()).rejects.toMatchObject({ code: 'mirror_unreachable' });
    closed.close();
  });

  test('a URL path is a repository prefix', async () => {
    const prefixed = new OciClient({ url: `${reg.url}/team-a`, ca_pem: reg.caPem });
    const bytes = randomBytes(500);
    await prefixed.pushBlob('navin/p/x', { digest: sha256Digest(bytes), size: bytes.length }, bytes);
    expect(await client.blobSize('team-a/navin/p/x', sha256Digest(bytes))).toBe(500);
    expect(prefixed.reference('navin/p/x', 'sha256:' + createHash('sha256').update(bytes).digest('hex'))).toBe(
      `${reg.host}/team-a/navin/p/x@${sha256Digest(bytes)}`,
    );
    prefixed.close();
  });
});
