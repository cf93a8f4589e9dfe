// A real OCI registry for the tests: Debian's docker-registry (CNCF Distribution 2.8) with TLS from the test CA,
// storage in a temp dir, on a port the kernel picks (read back from /proc, so no port race), stopped by the test.
// `skopeo` is the independent client that reads what the manager pushed.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { createHash, randomBytes } from 'node:crypto';
import { OCI_IMAGE_CONFIG, OCI_INDEX, OCI_MANIFEST } from '../../main/core/mirror/media-types';
import { OciClient, sha256Digest } from '../../main/core/mirror/oci-client';
import { issueServerCert, testCas } from './tls-endpoints';
import { tempDir } from './temp-dir';

export interface TestRegistry {
  /** https://<address>:<port> */
  url: string;
  /** host:port, as skopeo and image references name it. */
  host: string;
  /** The CA that signed the registry's certificate. */
  caPem: string;
  /** A folder with the CA as `ca.crt`, for `skopeo --cert-dir`. */
  certDir: string;
  /** Where the registry keeps its blobs (docker/registry/v2/...), for tests that corrupt a stored blob. */
  storageDir: string;
  /** Everything the registry wrote to stderr (its log). */
  log(): string;
  /** The requests the registry served, from its access log (written just after each answer). */
  requests(): RegistryRequest[];
  /** Waits until the access log shows a request matching `pred` (the log line follows the answer by a moment). */
  waitForRequest(pred: (r: RegistryRequest) => boolean, timeoutMs?: number): Promise<RegistryRequest>;
  stop(): Promise<void>;
}

export interface RegistryRequest {
  method: string;
  path: string;
  status: number;
  userAgent: string;
}

const DAY = 86_400_000;

export function registryBinary(): string | null {
  for (const d of [...(process.env.PATH ?? '').split(delimiter), '/usr/bin'])
    if (d && existsSync(join(d, 'docker-registry'))) return join(d, 'docker-registry');
  return null;
}

export function registryAvailable(): { ok: true } | { ok: false; reason: string } {
  if (!registryBinary()) return { ok: false, reason: 'docker-registry is not installed (Debian package docker-registry)' };
  return { ok: true };
}

/** The TCP port a process listens on, found through the socket inodes of its file descriptors. */
function listeningPort(pid: number): number | null {
  let inodes: Set<string>;
  try {
    inodes = new Set(
      readdirSync(`/proc/${pid}/fd`)
        .map((fd) => {
          try {
            return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
          } catch {
            return undefined;
          }
        })
        .filter((x): x is string => !!x),
    );
  } catch {
    return null;
  }
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address is HEX_IP:HEX_PORT, st 0A is LISTEN, inode is the 10th column.
      if (f.length > 9 && f[3] === '0A' && inodes.has(f[9]!)) return parseInt(f[1]!.split(':')[1]!, 16);
    }
  }
  return null;
}

function ping(url: string, caPem: string): Promise<number | null> {
  return new Promise((resolve) => {
    const req = request(`${url}/v2/`, { ca: caPem, agent: false, timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? null);
    });
    req.on('error', () => resolve(null));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

/**
 * Starts the registry on `address` (127.0.0.1 by default; a test-host bridge address such as 198.18.7.1 for
 * booted hosts). The certificate names that address and localhost.
 */
export async function startRegistry(opts: { address?: string } = {}): Promise<TestRegistry> {
  const bin = registryBinary();
  if (!bin) throw new Error('docker-registry is not installed (Debian package docker-registry)');
  const address = opts.address ?? '127.0.0.1';
  const dir = tempDir('navin-registry-');
  const { trusted } = testCas();
  const leaf = issueServerCert(trusted, ['localhost', address], new Date(Date.now() - DAY), new Date(Date.now() + 30 * DAY));
  writeFileSync(join(dir.path, 'cert.pem'), leaf.certPem);
  writeFileSync(join(dir.path, 'key.pem'), leaf.keyPem, { mode: 0o600 });
  const certDir = join(dir.path, 'certs');
  mkdirSync(certDir);
  writeFileSync(join(certDir, 'ca.crt'), trusted.certPem);
  const storageDir = join(dir.path, 'storage');
  const config = [
    'version: 0.1',
    'log:',
    '  level: warn',
    'storage:',
    '  filesystem:',
    `    rootdirectory: ${storageDir}`,
    '  delete:',
    '    enabled: true',
    'http:',
    `  addr: ${address.includes(':') ? `[${address}]` : address}:0`,
    '  secret: navin-test-registry-secret',
    '  tls:',
    `    certificate: ${join(dir.path, 'cert.pem')}`,
    `    key: ${join(dir.path, 'key.pem')}`,
    '',
  ].join('\n');
  writeFileSync(join(dir.path, 'config.yml'), config);
  const child: ChildProcess = spawn(bin, ['serve', join(dir.path, 'config.yml')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stderr!.setEncoding('utf8').on('data', (c: string) => {
    log += c;
    if (log.length > 1_000_000) log = log.slice(-500_000);
  });
  // The access log (Apache combined format) goes to stdout.
  const requests: RegistryRequest[] = [];
  let partial = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => {
    const lines = (partial + c).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const m = /"([A-Z]+) (\S+) HTTP\/[\d.]+" (\d{3}) \S+ "[^"]*" "([^"]*)"/.exec(line);
      if (m) requests.push({ method: m[1]!, path: m[2]!, status: Number(m[3]), userAgent: m[4]! });
    }
  });
  const waitForRequest = async (pred: (r: RegistryRequest) => boolean, timeoutMs = 5000): Promise<RegistryRequest> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = requests.find(pred);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`no such request in the registry's access log: ${JSON.stringify(requests.slice(-20))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const stop = async (): Promise<void> => {
    if (!exited) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exit;
      clearTimeout(timer);
    }
    dir.remove();
  };
  try {
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (exited) throw new Error(`docker-registry exited at start: ${log.slice(-2000)}`);
      const port = child.pid ? listeningPort(child.pid) : null;
      if (port) {
        const host = `${address.includes(':') ? `[${address}]` : address}:${port}`;
        const url = `https://${host}`;
        if ((await ping(url, trusted.certPem)) === 200)
          return {
            url,
            host,
            caPem: trusted.certPem,
            certDir,
            storageDir,
            log: () => log,
            requests: () => [...requests],
            waitForRequest,
            stop,
          };
      }
      if (Date.now() > deadline) throw new Error(`docker-registry did not answer within 15 s: ${log.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } catch (error) {
    await stop();
    throw error;
  }
}

const run = promisify(execFile);

/** A digest no registry holds: sha256 of a label (for images that must be found missing). */
export const absentDigest = (label: string): string => `sha256:${createHash('sha256').update(`absent: ${label}`).digest('hex')}`;

/**
 * Pushes a small real image (random layer, OCI config and manifest) under an OCI index, as multi-architecture
 * images are stored, and returns the index digest: what an image reference `<repository>@<digest>` pins.
 */
export async function pushTestImage(registry: Pick<TestRegistry, 'url' | 'caPem'>, repository: string, tag?: string): Promise<string> {
  const client = new OciClient({ url: registry.url, ca_pem: registry.caPem });
  try {
    const layer = randomBytes(1024);
    const config = Buffer.from(
      JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: [sha256Digest(layer)] } }),
    );
    const manifest = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: OCI_MANIFEST,
        config: { mediaType: OCI_IMAGE_CONFIG, digest: sha256Digest(config), size: config.length },
        layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: sha256Digest(layer), size: layer.length }],
      }),
    );
    const index = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: OCI_INDEX,
        manifests: [
          {
            mediaType: OCI_MANIFEST,
            digest: sha256Digest(manifest),
            size: manifest.length,
            platform: { architecture: 'amd64', os: 'linux' },
          },
        ],
      }),
    );
    for (const b of [layer, config]) await client.pushBlob(repository, { digest: sha256Digest(b), size: b.length }, b);
    await client.putManifest(repository, sha256Digest(manifest), manifest, OCI_MANIFEST);
    return await client.putManifest(repository, tag ?? sha256Digest(index), index, OCI_INDEX);
  } finally {
    client.close();
  }
}

/** `skopeo inspect` as an independent client, trusting the test CA; `raw` returns the manifest as stored. */
export async function skopeoInspect(
  registry: TestRegistry,
  reference: string,
  opts: { raw?: boolean; config?: boolean } = {},
): Promise<any> {
  const args = ['inspect', '--cert-dir', registry.certDir, '--retry-times', '0'];
  if (opts.raw) args.push('--raw');
  if (opts.config) args.push('--config');
  args.push(`docker://${registry.host}/${reference}`);
  const { stdout } = await run('skopeo', args, { maxBuffer: 16 << 20 });
  return JSON.parse(stdout);
}

export function skopeoAvailable(): boolean {
  return [...(process.env.PATH ?? '').split(delimiter), '/usr/bin'].some((d) => d && existsSync(join(d, 'skopeo')));
}

/** skopeo as a need of a suite (test/support/needs.ts). */
export const skopeoNeed = (): { ok: true } | { ok: false; reason: string } =>
  skopeoAvailable() ? { ok: true } : { ok: false, reason: 'skopeo is not installed (Debian package skopeo)' };

/** Deletes a manifest from the registry (as an operator pruning the mirror by hand would). */
export function deleteManifest(registry: Pick<TestRegistry, 'url' | 'caPem'>, repository: string, digest: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${registry.url}/v2/${repository}/manifests/${digest}`,
      { method: 'DELETE', ca: registry.caPem, agent: false },
      (res) => {
        res.resume();
        if (res.statusCode === 202) resolve();
        else reject(new Error(`DELETE ${repository}@${digest}: HTTP ${res.statusCode}`));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
