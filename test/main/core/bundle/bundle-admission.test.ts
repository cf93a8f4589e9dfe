// What a signed bundle may tag, against a real registry (Distribution): only the catalog's keys at their pins
// and the images the project ships; an older bundle does not move back a tag a newer one set unless asked
// (and then the audit says which); a blob a registry would not mount is streamed again from the tar.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkBundleItems } from '../../../../main/core/bundle/bundle-admission';
import { buildBundle } from '../../../../main/core/bundle/bundle-build';
import type { BundleContents } from '../../../../main/core/bundle/bundle-format';
import { importBundle } from '../../../../main/core/bundle/bundle-import';
import { loadCatalogDir } from '../../../../main/core/catalog/catalog-loader';
import { openManager, type Manager } from '../../../../main/core/manager';
import { OciClient, type BlobSource } from '../../../../main/core/mirror/oci-client';
import { nodeEd25519 } from '../../../../main/wire/ed25519-node';
import { publicKeyToPem } from '../../../../main/wire/public-key-pem';
import { releaseSigner } from '../../../support/bundles';
import { imageLayout, sha } from '../../../support/image-layouts';
import { REPO_ROOT } from '../../../support/cli';
import { describeNeeding } from '../../../support/needs';
import { registryAvailable, startRegistry, type TestRegistry } from '../../../support/registry';
import { tempDir } from '../../../support/temp-dir';

const catalog = loadCatalogDir(join(REPO_ROOT, 'resources/catalog'));

describe('the tags a bundle may carry', () => {
  const nats = catalog.artifacts('nats', '2.9.10-1').find((a) => a.name === 'nats-server')!;
  const pin = nats.platforms.find((p) => p.architecture === 'amd64' && p.available) as { digest: string; size: number };
  const item = (over: Partial<BundleContents['items'][number]>): BundleContents['items'][number] => ({
    kind: 'artifact',
    key: nats.key,
    repository: nats.repository,
    tag: nats.tag,
    digest: `sha256:${'1'.repeat(64)}`,
    media_type: 'application/vnd.oci.image.index.v1+json',
    size: 100,
    manifests: [],
    blobs: [],
    files: [
      {
        architecture: 'amd64',
        name: 'nats-server',
        digest: pin.digest,
        size: pin.size,
        source: { debian: { package: 'nats-server', version: '2.9.10-1', path: '/usr/sbin/nats-server' } },
      },
    ],
    ...over,
  });
  const contents = (...items: BundleContents['items']): BundleContents => ({ items }) as unknown as BundleContents;
  const refusal = (c: BundleContents): unknown => {
    try {
      checkBundleItems(c, catalog);
      return null;
    } catch (error) {
      return error;
    }
  };

  test('an artifact of the catalog at its pin, and the agent image, may be tagged', () => {
    const agent = item({
      kind: 'image',
      key: 'navin-cluster-agent@0.1.0',
      repository: 'navin/navin-cluster-agent',
      tag: '0.1.0',
      files: [],
    });
    expect(refusal(contents(item({}), agent))).toBeNull();
  });

  test.each([
    ['a repository outside navin/', item({ repository: 'library/nginx' }), /belongs in navin\/nats\/nats-server:2\.9\.10-1/],
    ["another tag than the key's version", item({ tag: 'latest' }), /belongs in/],
    [
      'a key the catalog does not have',
      item({ key: 'nats:nats-server@9.9.9-1', repository: 'navin/nats/nats-server', tag: '9.9.9-1' }),
      /not an artifact of the catalog/,
    ],
    [
      "a file that is not the catalog's pin",
      item({ files: [{ ...item({}).files[0]!, digest: `sha256:${'e'.repeat(64)}` }] }),
      /not the catalog's pin/,
    ],
    ['an artifact with no file to check', item({ files: [] }), /lists no file/],
    [
      'an image the project does not ship',
      item({ kind: 'image', key: 'nginx@1.0', repository: 'navin/nginx', tag: '1.0', files: [] }),
      /not an image the project ships/,
    ],
    [
      'an image tagged elsewhere than its key',
      item({ kind: 'image', key: 'navin-cluster-agent@0.1.0', repository: 'navin/navin-cluster-agent', tag: 'latest', files: [] }),
      /does not name/,
    ],
  ])('%s is refused bundle_tag_not_allowed, naming it', (_what, bad, why) => {
    const error = refusal(contents(item({}), bad)) as { code: string; message: string; details: { items: unknown[] } };
    expect(error).toMatchObject({ code: 'bundle_tag_not_allowed', message: expect.stringMatching(why) });
    expect(error.details.items).toEqual([expect.objectContaining({ repository: bad.repository, tag: bad.tag })]);
  });

  test('without a loaded catalog no artifact is taken', () => {
    expect(() => checkBundleItems(contents(item({})), null)).toThrow(/catalog is not loaded/);
  });
});

describeNeeding('bundle imports against the tags the mirror holds', [registryAvailable()], () => {
  const dir = tempDir('navin-bundle-admission-');
  const release = releaseSigner();
  let reg: TestRegistry;
  let manager: Manager;
  let client: OciClient;
  const bundles: Record<string, string> = {};
  const layerOf: Record<string, string> = {};

  const build = async (name: string, images: Record<string, Buffer>, now: string): Promise<void> => {
    const layout = imageLayout(join(dir.path, `${name}-layout`), images);
    bundles[name] = join(dir.path, `${name}.tar`);
    layerOf[name] = sha(Object.values(images)[0]!);
    await buildBundle({
      catalog,
      out: bundles[name],
      signer: release,
      builderVersion: 'test',
      services: [],
      images: [layout],
      now: new Date(now),
    });
  };
  const importOf = async (name: string, allowDowngrade?: boolean) =>
    manager.mirror.start(bundles[name]!, 'ada', { endpoint: { url: reg.url, ca_pem: reg.caPem }, allowDowngrade }).done;
  const agentTag = async (): Promise<string | null> => (await client.headManifest('navin/navin-cluster-agent', '0.1.0'))?.digest ?? null;

  beforeAll(async () => {
    reg = await startRegistry();
    client = new OciClient({ url: reg.url, ca_pem: reg.caPem });
    manager = openManager({ dataDir: join(dir.path, 'data'), mode: 'headless' });
    manager.releaseKeys.trust(publicKeyToPem(release.publicKey), 'test release', 'ada');
    await build('older', { 'navin-cluster-agent': randomBytes(4096) }, '2026-11-01T10:00:00.000Z');
    await build('newer', { 'navin-cluster-agent': randomBytes(4096) }, '2026-11-20T10:00:00.000Z');
    await build('foreign', { 'evil-image': randomBytes(4096) }, '2026-11-25T10:00:00.000Z');
  }, 60_000);
  afterAll(async () => {
    client?.close();
    manager?.close();
    await reg?.stop();
    dir.remove();
  });

  test('an image the project does not ship is refused bundle_tag_not_allowed before any push', async () => {
    const end = await importOf('foreign');
    expect(end).toMatchObject({ state: 'refused', code: 'bundle_tag_not_allowed', message: expect.stringMatching(/evil-image/) });
    expect(await client.tags('navin/evil-image')).toEqual([]);
    expect(await client.blobSize('navin/evil-image', layerOf.foreign!)).toBeNull();
  });

  test('an older bundle does not move back the tag a newer one set (bundle_downgrade); with allow_downgrade it does, and the audit names the tag', async () => {
    expect(await importOf('newer')).toMatchObject({ state: 'done' });
    const newer = await agentTag();
    expect(newer).not.toBeNull();

    const refused = await importOf('older');
    expect(refused).toMatchObject({ state: 'refused', code: 'bundle_downgrade' });
    expect(refused.message).toMatch(/navin\/navin-cluster-agent:0\.1\.0 \(set by bundle .*, made 2026-11-20T10:00:00\.000Z\)/);
    expect(await agentTag()).toBe(newer);

    const allowed = await importOf('older', true);
    expect(allowed).toMatchObject({ state: 'done' });
    const older = await agentTag();
    expect(older).not.toBe(newer);
    const audit = manager.store.audit.list({ action: 'mirror.import' }).find((a) => a.target === allowed.id)!;
    expect(audit.details.downgraded).toEqual([{ repository: 'navin/navin-cluster-agent', tag: '0.1.0', from: newer, to: older }]);
    const start = manager.store.audit.list({ action: 'mirror.import.start' }).find((a) => a.target === allowed.id)!;
    expect(start.details.allow_downgrade).toBe(true);

    // The newer bundle again is no downgrade: it moves the tag forward.
    expect(await importOf('newer')).toMatchObject({ state: 'done' });
    expect(await agentTag()).toBe(newer);
  });

  test('a blob a registry will not mount into a second repository is streamed there again from the tar, never read whole', async () => {
    const shared = randomBytes(1 << 20);
    const layout = imageLayout(join(dir.path, 'two-layout'), { 'navin-cluster-agent': shared, 'navin-other': shared }, '0.2.0');
    const file = join(dir.path, 'two.tar');
    await buildBundle({ catalog, out: file, signer: release, builderVersion: 'test', services: [], images: [layout] });
    const sources: { repository: string; buffer: boolean }[] = [];
    // A registry that refuses cross-repository mounts, as some do for a source the pusher cannot read.
    class NoMount extends OciClient {
      override async mountBlob(): Promise<boolean> {
        return false;
      }
      override pushBlob(
        repository: string,
        expected: { digest: string; size: number },
        source: BlobSource,
        opts?: Parameters<OciClient['pushBlob']>[3],
      ) {
        if (expected.digest === sha(shared)) sources.push({ repository, buffer: Buffer.isBuffer(source) });
        return super.pushBlob(repository, expected, source, opts);
      }
    }
    const prefixed = new NoMount({ url: `${reg.url}/nomount`, ca_pem: reg.caPem });
    try {
      await importBundle({
        file,
        client: prefixed,
        trustedKeys: new Map([[release.keyId, release.publicKey]]),
        impl: nodeEd25519,
        chunkSize: 64 << 10,
      });
      expect(sources.map((s) => s.repository).sort()).toEqual(['navin/navin-cluster-agent', 'navin/navin-other']);
      expect(sources.every((s) => !s.buffer)).toBe(true);
      for (const repository of ['navin/navin-cluster-agent', 'navin/navin-other'])
        expect(await prefixed.blobSize(repository, sha(shared))).toBe(shared.length);
    } finally {
      prefixed.close();
    }
  });
});
