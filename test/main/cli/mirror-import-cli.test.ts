// `navin-manager mirror import --allow-downgrade`, the built CLI against a real registry: an older bundle that
// would move back a tag a newer one set exits 1 with bundle_downgrade; the flag takes it, and the audit says so.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildBundle } from '../../../main/core/bundle/bundle-build';
import { loadCatalogDir } from '../../../main/core/catalog/catalog-loader';
import { openManager } from '../../../main/core/manager';
import { OciClient } from '../../../main/core/mirror/oci-client';
import { publicKeyToPem } from '../../../main/wire/public-key-pem';
import { releaseSigner } from '../../support/bundles';
import { REPO_ROOT, runCli } from '../../support/cli';
import { imageLayout } from '../../support/image-layouts';
import { describeNeeding } from '../../support/needs';
import { registryAvailable, startRegistry, type TestRegistry } from '../../support/registry';
import { tempDir } from '../../support/temp-dir';

describeNeeding('navin-manager mirror import --allow-downgrade', [registryAvailable()], () => {
  const dir = tempDir('navin-mirror-cli-');
  const release = releaseSigner();
  const data = join(dir.path, 'data');
  let reg: TestRegistry;
  let mirror: string[];

  const bundle = async (name: string, now: string): Promise<string> => {
    const out = join(dir.path, `${name}.tar`);
    const layout = imageLayout(join(dir.path, name), { 'navin-cluster-agent': randomBytes(2048) });
    const catalog = loadCatalogDir(join(REPO_ROOT, 'resources/catalog'));
    await buildBundle({ catalog, out, signer: release, builderVersion: 'test', services: [], images: [layout], now: new Date(now) });
    return out;
  };

  beforeAll(async () => {
    reg = await startRegistry();
    const ca = join(dir.path, 'ca.pem');
    writeFileSync(ca, reg.caPem);
    mirror = ['--mirror', reg.url, '--mirror-ca', ca, '--data-dir', data];
    const m = openManager({ dataDir: data, mode: 'headless' });
    m.releaseKeys.trust(publicKeyToPem(release.publicKey), 'ops', 'test');
    m.close();
  });
  afterAll(async () => {
    await reg?.stop();
    dir.remove();
  });

  test('an older bundle is refused bundle_downgrade, exit 1; with --allow-downgrade it is imported and the audit names the tag moved back', async () => {
    const older = await bundle('older', '2026-10-01T00:00:00.000Z');
    const newer = await bundle('newer', '2026-11-01T00:00:00.000Z');
    expect(runCli(['mirror', 'import', newer, ...mirror]).status).toBe(0);
    const client = new OciClient({ url: reg.url, ca_pem: reg.caPem });
    const tag = async () => (await client.headManifest('navin/navin-cluster-agent', '0.1.0'))?.digest;
    const before = await tag();

    const refused = runCli(['mirror', 'import', older, ...mirror]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/refused: bundle_downgrade: .*navin\/navin-cluster-agent:0\.1\.0.*--allow-downgrade/);
    expect(await tag()).toBe(before);

    const taken = runCli(['mirror', 'import', older, '--allow-downgrade', ...mirror]);
    expect(taken.status, taken.stderr).toBe(0);
    expect(await tag()).not.toBe(before);
    client.close();
    const m = openManager({ dataDir: data, mode: 'headless' });
    try {
      const last = m.store.audit.list({ action: 'mirror.import' }).find((a) => a.details.outcome === 'done' && a.details.downgraded);
      expect(last?.actor).toBe('cli');
      expect(last?.details.downgraded).toEqual([
        expect.objectContaining({ repository: 'navin/navin-cluster-agent', tag: '0.1.0', from: before }),
      ]);
    } finally {
      m.close();
    }
  }, 120_000);
});
