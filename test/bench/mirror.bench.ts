// Mirror throughput, side by side in one run: importing a signed bundle of the catalog's Debian binaries (signature,
// every digest, staged push, tags) against `skopeo copy` of the same artifacts from the same OCI layout, each run
// into a registry of its own (Distribution 2.8, TLS, started before the clock runs) so every byte really goes up;
// then pulling and verifying the four binaries against a bare GET of the same blobs and against reading the files.
import { execFile } from 'node:child_process';
import { createReadStream, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { buildBundle } from '../../main/core/bundle/bundle-build';
import { importBundle } from '../../main/core/bundle/bundle-import';
import { loadCatalogDir } from '../../main/core/catalog/catalog-loader';
import { pullArtifactFile } from '../../main/core/mirror/artifacts';
import { OciClient } from '../../main/core/mirror/oci-client';
import { nodeEd25519 } from '../../main/wire/ed25519-node';
import { readTar, releaseSigner } from '../support/bundles';
import { REPO_ROOT } from '../support/cli';
import { startRegistry, type TestRegistry } from '../support/registry';
import { tempDir } from '../support/temp-dir';

const run = promisify(execFile);
const RUNS = Number(process.env.NAVIN_BENCH_RUNS ?? 3);
const catalog = loadCatalogDir(join(REPO_ROOT, 'resources/catalog'));
const release = releaseSigner();
const dir = tempDir('navin-bench-mirror-');
let bundle = '';
let layout = '';
let bytes = 0;
let refs: string[] = [];
const pools: Record<'ours' | 'skopeo', TestRegistry[]> = { ours: [], skopeo: [] };
const used: TestRegistry[] = [];
const took: Record<string, number[]> = {};
let pullRegistry: TestRegistry;
let pullClient: OciClient;

const timed = async (label: string, fn: () => Promise<void>): Promise<void> => {
  const t0 = performance.now();
  await fn();
  (took[label] ??= []).push(performance.now() - t0);
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** A registry nothing was pushed to yet (started before the clock runs; one more is started if tinybench calls again). */
const next = async (pool: TestRegistry[]): Promise<TestRegistry> => {
  const r = pool.shift() ?? (await startRegistry());
  used.push(r);
  return r;
};

/** The artifacts the bundle carries, as one OCI layout folder for skopeo (extracted before the clock runs). */
async function extractLayout(file: string, to: string): Promise<void> {
  mkdirSync(join(to, 'blobs/sha256'), { recursive: true });
  for (const e of await readTar(file)) if (e.type === 'file' && e.name !== 'navin-bundle.json') writeFileSync(join(to, e.name), e.body);
}

beforeAll(async () => {
  bundle = join(dir.path, 'bundle.tar');
  await buildBundle({ catalog, out: bundle, signer: release, builderVersion: 'bench' });
  bytes = statSync(bundle).size;
  layout = join(dir.path, 'layout');
  await extractLayout(bundle, layout);
  refs = (
    JSON.parse(readFileSync(join(layout, 'index.json'), 'utf8')) as { manifests: { annotations: Record<string, string> }[] }
  ).manifests.map((m) => m.annotations['org.opencontainers.image.ref.name']!);
  // A fresh registry for every run of each side (tinybench also calls once to see whether the function is async).
  for (let i = 0; i < RUNS + 1; i++) {
    pools.ours.push(await startRegistry());
    pools.skopeo.push(await startRegistry());
  }
  pullRegistry = await startRegistry();
  pullClient = new OciClient({ url: pullRegistry.url, ca_pem: pullRegistry.caPem });
  await importBundle({ file: bundle, client: pullClient, trustedKeys: new Map([[release.keyId, release.publicKey]]), impl: nodeEd25519 });
}, 300_000);

afterAll(async () => {
  pullClient?.close();
  await Promise.all([...used, ...pools.ours, ...pools.skopeo, pullRegistry].filter(Boolean).map((r) => r.stop()));
  dir.remove();
  const mbps = (label: string, size: number): string => (took[label] ? (((size / 1e6) * 1000) / median(took[label])).toFixed(1) : '?');
  const ours = took.import ? median(took.import) : NaN;
  const skopeo = took.skopeo ? median(took.skopeo) : NaN;
  console.log(
    `\nimport of ${(bytes / 1e6).toFixed(1)} MB (${refs.length} tags): navin-manager ${ours.toFixed(0)} ms (${mbps('import', bytes)} MB/s), skopeo copy ${skopeo.toFixed(0)} ms (${mbps('skopeo', bytes)} MB/s): ours at ${((skopeo / ours) * 100).toFixed(0)} % of skopeo's rate`,
  );
  const pulled = PULLED.reduce((n, p) => n + statSync(p).size, 0);
  for (const label of ['pull+verify', 'bare GET', 'read files'])
    if (took[label])
      console.log(`${label}: ${median(took[label]).toFixed(0)} ms for ${(pulled / 1e6).toFixed(1)} MB (${mbps(label, pulled)} MB/s)`);
  if (took['pull+verify'] && took['bare GET'])
    console.log(`pull+verify at ${((median(took['bare GET']) / median(took['pull+verify'])) * 100).toFixed(0)} % of a bare GET's rate`);
}, 120_000);

const once = { iterations: RUNS, time: 0, warmupIterations: 0, warmupTime: 0 };

describe('bundle import vs skopeo copy (same artifacts, a fresh registry each run)', () => {
  bench(
    'navin-manager: import the signed bundle (signature, every digest, staged push, tags)',
    async () => {
      const reg = await next(pools.ours);
      await timed('import', async () => {
        const client = new OciClient({ url: reg.url, ca_pem: reg.caPem });
        await importBundle({ file: bundle, client, trustedKeys: new Map([[release.keyId, release.publicKey]]), impl: nodeEd25519 });
        client.close();
      });
    },
    once,
  );
  bench(
    'skopeo copy --all --preserve-digests of each tag from the same OCI layout',
    async () => {
      const reg = await next(pools.skopeo);
      await timed('skopeo', async () => {
        for (const ref of refs)
          await run('skopeo', [
            'copy',
            '--all',
            '--preserve-digests',
            '--dest-cert-dir',
            reg.certDir,
            `oci:${layout}:${ref}`,
            `docker://${reg.host}/${ref}`,
          ]);
      });
    },
    once,
  );
});

const PULLED = ['/usr/bin/etcd', '/usr/bin/etcdctl', '/usr/sbin/nats-server', '/usr/bin/prometheus-node-exporter'];
const PULLS = [
  ['etcd', '3.4.23-1', 'etcd'],
  ['etcd', '3.4.23-1', 'etcdctl'],
  ['nats', '2.9.10-1', 'nats-server'],
  ['node-exporter', '1.5.0-1', 'node-exporter'],
] as const;

function bareGet(url: string, ca: string): Promise<void> {
  return new Promise((resolve, reject) => {
    request(url, { ca, agent: false }, (res) => {
      res.on('data', () => undefined);
      res.on('end', resolve);
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('pull and verify the four binaries vs a bare GET of the same blobs vs reading the files', () => {
  bench(
    'navin-manager: resolve index and manifest, download each file verified to disk',
    () =>
      timed('pull+verify', async () => {
        for (const [service, version, name] of PULLS) {
          const a = catalog.artifacts(service, version).find((x) => x.name === name)!;
          await pullArtifactFile(pullClient, a, 'amd64', join(dir.path, `pulled-${name}`));
        }
      }),
    { ...once, iterations: RUNS * 2 },
  );
  bench(
    'bare HTTPS GET of the same blobs, bytes discarded, nothing checked',
    () =>
      timed('bare GET', async () => {
        for (const [service, version, name] of PULLS) {
          const p = catalog.artifacts(service, version).find((x) => x.name === name)!.platforms[0]!;
          if (p.available) await bareGet(`${pullRegistry.url}/v2/navin/${service}/${name}/blobs/${p.digest}`, pullRegistry.caPem);
        }
      }),
    { ...once, iterations: RUNS * 2 },
  );
  bench(
    'reading the Debian files from disk',
    () =>
      timed('read files', async () => {
        for (const f of PULLED) for await (const _ of createReadStream(f, { highWaterMark: 1 << 20 }));
      }),
    { ...once, iterations: RUNS * 2 },
  );
});
