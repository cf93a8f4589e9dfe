// Builds the agent's OCI image without Docker: an OCI image layout (out/agent-image/) and a tar of it
// (out/navin-cluster-agent.oci.tar). Layers: the Node runtime with the shared libraries it links, a non-root
// user; then the bundled agent. Every timestamp, owner and order is fixed, so the same sources give the same
// digest. Prints <name>@sha256:<digest> for the manifests route.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import tar from 'tar-stream';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { out: { type: 'string' }, name: { type: 'string' } } });
const outDir = resolve(values.out ?? join(root, 'out'));
const name = values.name ?? 'navin-cluster-agent';
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const bundle = join(root, 'out/agent/navin-agent.cjs');
// The operator ships in the same image: its Deployment runs this file instead of the agent.
const operatorBundle = join(root, 'out/agent/navin-operator.cjs');
const EPOCH = new Date(0);
const UID = 65532;

const sha256 = (buf) => createHash('sha256').update(buf).digest('hex');

/** A deterministic tar of entries {path, body?, mode, type}: sorted, owned by root, dated 1970. */
function tarOf(entries) {
  return new Promise((done, fail) => {
    const pack = tar.pack();
    const chunks = [];
    pack.on('data', (c) => chunks.push(c));
    pack.on('end', () => done(Buffer.concat(chunks)));
    pack.on('error', fail);
    for (const e of [...entries].sort((a, b) => (a.path < b.path ? -1 : 1))) {
      const header = {
        name: e.path,
        mode: e.mode,
        mtime: EPOCH,
        uid: e.uid ?? 0,
        gid: e.gid ?? 0,
        uname: '',
        gname: '',
        type: e.type ?? 'file',
      };
      if (e.type === 'directory') pack.entry(header);
      else pack.entry({ ...header, size: e.body.length }, e.body);
    }
    pack.finalize();
  });
}

/** The Node binary and every shared library it loads, at their paths. */
function runtimeEntries() {
  const node = realpathSync(process.execPath);
  const entries = [{ path: 'usr/local/bin/node', body: readFileSync(node), mode: 0o755 }];
  const ldd = execFileSync('ldd', [node], { encoding: 'utf8' });
  for (const line of ldd.split('\n')) {
    const m = /(?:=>\s*)?(\/\S+)\s+\(0x/.exec(line);
    if (!m) continue;
    entries.push({ path: m[1].slice(1), body: readFileSync(realpathSync(m[1])), mode: 0o755 });
  }
  const dirs = new Set();
  for (const e of entries) for (let d = dirname(e.path); d !== '.'; d = dirname(d)) dirs.add(d);
  for (const d of ['etc', 'tmp', 'app']) dirs.add(d);
  return [
    ...[...dirs].map((d) => ({ path: `${d}/`, type: 'directory', mode: d === 'tmp' ? 0o1777 : 0o755 })),
    ...entries,
    {
      path: 'etc/passwd',
      body: Buffer.from(`root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:${UID}:${UID}:nonroot:/home/nonroot:/sbin/nologin\n`),
      mode: 0o644,
    },
    { path: 'etc/group', body: Buffer.from(`root:x:0:\nnonroot:x:${UID}:\n`), mode: 0o644 },
  ];
}

async function layer(entries) {
  const raw = await tarOf(entries);
  const gz = gzipSync(raw, { level: 9 });
  return { raw, gz, diffId: `sha256:${sha256(raw)}`, digest: `sha256:${sha256(gz)}` };
}

statSync(bundle); // the agent must be bundled first (npm run build)
const layers = [
  await layer(runtimeEntries()),
  await layer([
    { path: 'app/', type: 'directory', mode: 0o755 },
    { path: 'app/navin-agent.cjs', body: readFileSync(bundle), mode: 0o644 },
    { path: 'app/navin-operator.cjs', body: readFileSync(operatorBundle), mode: 0o644 },
  ]),
];
const config = Buffer.from(
  JSON.stringify({
    architecture: 'amd64',
    os: 'linux',
    config: {
      User: `${UID}:${UID}`,
      Entrypoint: ['/usr/local/bin/node', '/app/navin-agent.cjs'],
      Env: ['NODE_ENV=production', 'PATH=/usr/local/bin'],
      WorkingDir: '/app',
      Labels: { 'org.opencontainers.image.title': name, 'org.opencontainers.image.version': pkg.version },
    },
    rootfs: { type: 'layers', diff_ids: layers.map((l) => l.diffId) },
    history: [
      { created_by: 'navin: node runtime', created: EPOCH.toISOString() },
      { created_by: 'navin: agent bundle', created: EPOCH.toISOString() },
    ],
  }),
);
const manifest = Buffer.from(
  JSON.stringify({
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: `sha256:${sha256(config)}`, size: config.length },
    layers: layers.map((l) => ({ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: l.digest, size: l.gz.length })),
  }),
);
const digest = `sha256:${sha256(manifest)}`;
const index = Buffer.from(
  JSON.stringify({
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.index.v1+json',
    manifests: [
      {
        mediaType: 'application/vnd.oci.image.manifest.v1+json',
        digest,
        size: manifest.length,
        annotations: { 'org.opencontainers.image.ref.name': pkg.version },
      },
    ],
  }),
);

const layout = join(outDir, 'agent-image');
rmSync(layout, { recursive: true, force: true });
mkdirSync(join(layout, 'blobs/sha256'), { recursive: true });
const blobs = [config, manifest, ...layers.map((l) => l.gz)];
for (const b of blobs) writeFileSync(join(layout, 'blobs/sha256', sha256(b)), b);
const ociLayout = Buffer.from('{"imageLayoutVersion":"1.0.0"}');
writeFileSync(join(layout, 'oci-layout'), ociLayout);
writeFileSync(join(layout, 'index.json'), index);
const archive = await tarOf([
  { path: 'blobs/', type: 'directory', mode: 0o755 },
  { path: 'blobs/sha256/', type: 'directory', mode: 0o755 },
  ...blobs.map((b) => ({ path: `blobs/sha256/${sha256(b)}`, body: b, mode: 0o644 })),
  { path: 'oci-layout', body: ociLayout, mode: 0o644 },
  { path: 'index.json', body: index, mode: 0o644 },
]);
writeFileSync(join(outDir, 'navin-cluster-agent.oci.tar'), archive);
process.stdout.write(`${name}@${digest}\n`);
