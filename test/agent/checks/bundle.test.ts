// The checks bundle into one CommonJS file that plain Node runs, as the agents are shipped (esbuild, no native
// addon): each client library loads and works from the bundle. etcd3 reads its .proto files at load time from
// `<bundle folder>/../proto`, so whoever ships the bundle must put etcd3's proto/ folder there.
import { execFile } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { tempDir } from '../../support/temp-dir';
import { opaTestServer, type OpaTestServer } from '../../support/opa/opa-test-server';
import { openfgaTestServer, type OpenfgaTestServer } from '../../support/openfga/openfga-test-server';
import { freePorts } from '../../support/services/ports';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../../..');
const dir = tempDir('navin-checks-bundle-');
let opa: OpaTestServer;
let fga: OpenfgaTestServer;
let metrics: Server;
let metricsUrl = '';

// A minimal exposition with the metrics the functional test needs, in the text format's content type.
const EXPOSITION = [
  '# TYPE node_cpu_seconds_total counter',
  'node_cpu_seconds_total{cpu="0",mode="idle"} 100.5',
  'node_cpu_seconds_total{cpu="0",mode="user"} 20',
  '# TYPE node_memory_MemTotal_bytes gauge',
  'node_memory_MemTotal_bytes 1.6e+10',
  '# TYPE node_memory_MemAvailable_bytes gauge',
  'node_memory_MemAvailable_bytes 8e+09',
  '# TYPE node_filesystem_size_bytes gauge',
  'node_filesystem_size_bytes{device="/dev/sda1",fstype="ext4",mountpoint="/"} 1e+11',
  '# TYPE node_filesystem_avail_bytes gauge',
  'node_filesystem_avail_bytes{device="/dev/sda1",fstype="ext4",mountpoint="/"} 4e+10',
  '',
].join('\n');

beforeAll(async () => {
  [opa, fga] = await Promise.all([opaTestServer(), openfgaTestServer()]);
  metrics = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
    res.end(EXPOSITION);
  });
  await new Promise<void>((r) => metrics.listen(0, '127.0.0.1', r));
  metricsUrl = `http://127.0.0.1:${(metrics.address() as { port: number }).port}/metrics`;
  const entry = join(dir.path, 'entry.ts');
  writeFileSync(
    entry,
    `import { runCheck } from ${JSON.stringify(join(root, 'agent/checks/index.ts'))};\n` +
      `const list = JSON.parse(process.argv[2]);\n` +
      `Promise.all(list.map(([k, p]) => runCheck(k, p))).then((o) => process.stdout.write(JSON.stringify(o)));\n`,
  );
  await build({
    entryPoints: [entry],
    outfile: join(dir.path, 'agent/checks.cjs'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'silent',
  });
}, 60_000);
afterAll(async () => {
  await Promise.all([opa?.close(), fga?.close(), new Promise((r) => metrics?.close(r))]);
  dir.remove();
});

test('without etcd3 proto files beside it the bundle cannot load; with them every client works from the bundle', async () => {
  const bundle = join(dir.path, 'agent/checks.cjs');
  const [closed] = (await freePorts(1)) as [number];
  const list = [
    ['opa.policy', { url: opa.url }],
    ['openfga.check', { url: fga.url }],
    ['node_exporter.metrics', { url: metricsUrl }],
    ['etcd.kv', { endpoints: [`http://127.0.0.1:${closed}`], timeout_ms: 2000 }],
    ['nats.pubsub', { endpoints: [`nats://127.0.0.1:${closed}`], timeout_ms: 2000 }],
  ];
  await expect(run(process.execPath, [bundle, JSON.stringify(list)])).rejects.toThrow(/proto\/rpc\.proto|ENOENT/);

  cpSync(join(root, 'node_modules/etcd3/proto'), join(dir.path, 'proto'), { recursive: true });
  const { stdout } = await run(process.execPath, [bundle, JSON.stringify(list)], { timeout: 30_000 });
  const outcomes = JSON.parse(stdout) as { kind: string; status: string; error?: { code: string } }[];
  expect(outcomes.map((o) => [o.kind, o.status, o.error?.code])).toEqual([
    ['opa.policy', 'pass', undefined],
    ['openfga.check', 'pass', undefined],
    ['node_exporter.metrics', 'pass', undefined],
    // gRPC and the etcd protocol loaded: the outcome is the closed port's, not a crash.
    ['etcd.kv', 'fail', 'unreachable'],
    ['nats.pubsub', 'fail', 'unreachable'],
  ]);
}, 60_000);
