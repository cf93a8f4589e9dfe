// The operator's path across the air gap with the real CLI processes: a release key on the connected side,
// a bundle of the catalog's Debian binaries and the agent image built from this repo, the key trusted on the
// isolated side, the import into a real registry, the listing, and skopeo reading the result.
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { blobEntry } from '../../../main/core/bundle/bundle-format';
import { rewriteTar } from '../../support/bundles';
import { CLI, REPO_ROOT, assertBuilt } from '../../support/cli';
import { describeNeeding } from '../../support/needs';
import { registryAvailable, skopeoInspect, skopeoNeed, startRegistry, type TestRegistry } from '../../support/registry';
import { tempDir } from '../../support/temp-dir';

const run = promisify(execFile);
/** The CLI as a process (async, so the registry of this test process keeps answering meanwhile). */
async function cli(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  assertBuilt();
  try {
    const r = await run(process.execPath, [CLI, ...args], { maxBuffer: 16 << 20, timeout: 120_000 });
    return { status: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { status: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describeNeeding('navin-manager bundle build, mirror import, mirror list', [registryAvailable(), skopeoNeed()], () => {
  const dir = tempDir();
  const connected = join(dir.path, 'connected');
  const isolated = join(dir.path, 'isolated');
  const key = join(connected, 'release.key');
  const pw = join(connected, 'passphrase');
  const pem = join(dir.path, 'release.pem');
  const bundle = join(dir.path, 'bundle.tar');
  let reg: TestRegistry;
  let caFile: string;
  let agentDigest: string;

  beforeAll(async () => {
    reg = await startRegistry();
    caFile = join(dir.path, 'mirror-ca.pem');
    writeFileSync(caFile, reg.caPem);
    execFileSync('mkdir', ['-p', connected, isolated]);
    writeFileSync(pw, 'correct horse battery staple\n');
    // The agent image, built from this repo as `npm run build:agent-image` does.
    agentDigest = execFileSync(process.execPath, [join(REPO_ROOT, 'agent/build-image.mjs'), '--out', connected], { encoding: 'utf8' })
      .trim()
      .split('@')[1]!;
  }, 120_000);
  afterAll(async () => {
    await reg?.stop();
    dir.remove();
  });

  test('round trip: build on the connected side, trust, import, list, then skopeo inspects what was pushed', async () => {
    expect((await cli(['release-key', 'create', '--key-file', key, '--passphrase-file', pw, '--label', 'ops'])).status).toBe(0);
    expect((await cli(['release-key', 'export', '--key-file', key, '--out', pem])).status).toBe(0);
    expect(readFileSync(pem, 'utf8')).toMatch(/^-----BEGIN PUBLIC KEY-----/);

    const build = await cli([
      'bundle',
      'build',
      '--catalog',
      join(REPO_ROOT, 'resources/catalog'),
      '--out',
      bundle,
      '--key-file',
      key,
      '--passphrase-file',
      pw,
      '--image',
      join(connected, 'agent-image'),
    ]);
    expect(build.status, build.stderr).toBe(0);
    expect(build.stdout).toContain('included  etcd:etcd@3.4.23-1  navin/etcd/etcd:3.4.23-1');
    expect(build.stdout).toContain(`included  navin-cluster-agent@0.1.0  navin/navin-cluster-agent:0.1.0  ${agentDigest}`);
    expect(build.stdout).toMatch(/not included {2}opa:opa@1\.21\.3-1 \(amd64\): No OPA binary/);
    expect(build.stdout).toMatch(/not included {2}openfga:openfga@1\.5\.8-1 \(amd64\)/);
    expect(build.stdout).not.toMatch(/^included {2}(opa|openfga):/m);

    const mirror = ['--mirror', reg.url, '--mirror-ca', caFile, '--data-dir', isolated];
    // Not trusted yet: refused.
    const untrusted = await cli(['mirror', 'import', bundle, ...mirror]);
    expect(untrusted.status).toBe(1);
    expect(untrusted.stderr).toContain('refused: bundle_signature_invalid');
    expect((await cli(['release-key', 'trust', '--public-key', pem, '--label', 'ops', '--data-dir', isolated])).status).toBe(0);
    expect((await cli(['release-key', 'list', '--data-dir', isolated])).stdout).toMatch(/^[0-9a-f]{16} {2}ops {2}added /);

    const imported = await cli(['mirror', 'import', bundle, ...mirror]);
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stderr).toMatch(/navin-manager: 100% \(/);
    expect(imported.stdout).toContain(`navin-cluster-agent@0.1.0  ${reg.host}/navin/navin-cluster-agent@${agentDigest}`);

    const list = await cli(['mirror', 'list', ...mirror]);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^etcd\n {2}3\.4\.23-1 {2}etcd {2}amd64 {2}sha256:[a-f0-9]{64} {2}matches the catalog$/m);
    expect(list.stdout).toMatch(/^ {2}3\.4\.23-2 {2}etcdctl {2}amd64 .* matches the catalog$/m);
    expect(list.stdout).toMatch(/^nats\n {2}2\.9\.10-1 {2}nats-server/m);
    expect(list.stdout).toContain(`navin/navin-cluster-agent:0.1.0  ${agentDigest}`);
    const json = JSON.parse((await cli(['mirror', 'list', '--json', ...mirror])).stdout);
    // etcd and etcdctl in two versions, nats-server, node-exporter in two; the databases' .debs (23 and 27).
    expect(json.artifacts).toHaveLength(57);

    // skopeo, an independent client: the agent image as an image, the node exporter as an artifact.
    const image = await skopeoInspect(reg, `navin/navin-cluster-agent:0.1.0`);
    expect(image).toMatchObject({
      Digest: agentDigest,
      Architecture: 'amd64',
      Os: 'linux',
      Labels: { 'org.opencontainers.image.title': 'navin-cluster-agent' },
    });
    const index = await skopeoInspect(reg, 'navin/node-exporter/node-exporter:1.5.0-1', { raw: true });
    const manifest = await skopeoInspect(reg, `navin/node-exporter/node-exporter@${index.manifests[0].digest}`, { raw: true });
    expect(manifest.layers[0].digest).toBe('sha256:67155e19b20caafc09c92e4dcddd74ae264c634b49f04791597ff81388bd2e91');
  }, 240_000);

  test('a tampered bundle is refused with its code and exit 1', async () => {
    const tampered = join(dir.path, 'tampered.tar');
    const entry = blobEntry('sha256:67155e19b20caafc09c92e4dcddd74ae264c634b49f04791597ff81388bd2e91');
    await rewriteTar(bundle, tampered, (e) =>
      e.name === entry ? { ...e, body: Buffer.concat([Buffer.from('MZ'), e.body.subarray(2)]) } : e,
    );
    const r = await cli(['mirror', 'import', tampered, '--mirror', `${reg.url}/tampered`, '--mirror-ca', caFile, '--data-dir', isolated]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/refused: digest_mismatch: blobs\/sha256\/67155e19/);
  }, 120_000);

  test('the build refuses an unavailable service and a wrong passphrase; catalog check names the problem', async () => {
    const opa = await cli([
      'bundle',
      'build',
      '--out',
      join(dir.path, 'opa.tar'),
      '--key-file',
      key,
      '--passphrase-file',
      pw,
      '--service',
      'opa',
    ]);
    expect(opa.status).toBe(1);
    expect(opa.stderr).toMatch(/artifact_unavailable: opa 1\.21\.3-1 cannot be bundled/);
    const wrong = join(dir.path, 'wrong');
    writeFileSync(wrong, 'not the passphrase at all\n');
    const bad = await cli(['bundle', 'build', '--out', join(dir.path, 'x.tar'), '--key-file', key, '--passphrase-file', wrong]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/release_key_unseal_failed/);

    const catalogDir = join(dir.path, 'catalog');
    execFileSync('cp', ['-r', join(REPO_ROOT, 'resources/catalog'), catalogDir]);
    const nats = join(catalogDir, 'nats.yaml');
    writeFileSync(nats, readFileSync(nats, 'utf8').replace('free_ports: [client, cluster, monitor]', 'free_ports: [client, routes]'));
    const check = await cli(['catalog', 'check', '--catalog', catalogDir]);
    expect(check.status).toBe(1);
    expect(check.stderr).toMatch(/nats\.yaml: preflight\.free_ports\[1\] \(line \d+\): routes is not a declared port/);
    expect((await cli(['catalog', 'check'])).status).toBe(0);
  }, 120_000);
});
