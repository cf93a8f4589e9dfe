// Booted test hosts ready for services: the node agent installed from its .deb on each, enrolled in hosts
// clusters of a headless manager, and a real OCI registry on the hosts' bridge holding the catalog artifacts
// of Debian's binaries (etcd, etcdctl, nats-server, node exporter), set as the manager's mirror.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pkg from '../../package.json';
import { loadBuiltinCatalog } from '../../main/core/catalog/catalog-builtin';
import { loadCatalogDir } from '../../main/core/catalog/catalog-loader';
import { pushArtifactFiles } from '../../main/core/mirror/artifacts';
import { OciClient } from '../../main/core/mirror/oci-client';
import { until } from './agent-harness';
import { REPO_ROOT } from './cli';
import { bootHosts, type HostSuite, type TestHost } from './hosts';
import { hostsHarness, type HostsHarness } from './node-agent-harness';
import { startRegistry, type TestRegistry } from './registry';
import { tempDir } from './temp-dir';

const DEB = `navin-node-agent_${pkg.version}_amd64.deb`;

export interface ServiceHosts {
  suite: HostSuite;
  hosts: TestHost[];
  h: HostsHarness;
  registry: TestRegistry;
  /** Host id by host name. */
  ids: Map<string, string>;
  /** The hosts clusters' ids, in the order of the layout (the first is the harness's own). */
  clusters: string[];
  close(): Promise<void>;
}

/** Starts an operation (202 expected, else it throws with the answer) and waits until it has ended; returns it. */
export async function operate(
  h: Pick<HostsHarness, 'api'>,
  method: 'POST' | 'PUT',
  path: string,
  body: unknown,
  timeoutMs = 240_000,
): Promise<any> {
  const started = await h.api(method, path, body);
  if (started.status !== 202) throw new Error(`${method} ${path}: ${started.status} ${JSON.stringify(started.body)}`);
  return until(
    `operation ${started.body.id}`,
    async () => {
      const r = await h.api('GET', `/api/v1/operations/${started.body.id}`);
      return r.body.state !== 'running' ? r.body : undefined;
    },
    timeoutMs,
    100,
  );
}

/** Installs each service at its version on these hosts of the cluster, one after the other; throws on a failure. */
export async function installServices(
  h: Pick<HostsHarness, 'api'>,
  cluster: string,
  services: readonly (readonly [string, string])[],
  hosts: string[],
): Promise<void> {
  for (const [service, version] of services) {
    const op = await operate(h, 'POST', `/api/v1/clusters/${cluster}/services`, { service, version, hosts });
    if (op.state !== 'succeeded') throw new Error(`${service}: ${op.code} ${op.message}`);
  }
}

/** The built-in catalog copied into `dir`, each file named in `edits` passed through its edit (a test's own versions). */
export function copyCatalog(dir: string, edits: Record<string, (text: string) => string>): void {
  const from = join(REPO_ROOT, 'resources', 'catalog');
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(from)) copyFileSync(join(from, f), join(dir, f));
  for (const [f, edit] of Object.entries(edits)) writeFileSync(join(dir, f), edit(readFileSync(join(dir, f), 'utf8')));
}

export async function sh(host: TestHost, script: string, input?: string): Promise<string> {
  const r = await host.exec(['sh', '-c', script], { input, timeoutMs: 120_000 });
  if (r.code !== 0) throw new Error(`${host.name}: ${script} exited ${r.code}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** Pushes the catalog artifacts of these service versions into the registry, from Debian's binaries. */
export async function pushServiceArtifacts(
  registry: Pick<TestRegistry, 'url' | 'caPem'>,
  versions: [string, string][],
  catalogDir?: string,
): Promise<void> {
  const load = loadBuiltinCatalog();
  if (!load.ok) throw new Error('the built-in catalog is invalid');
  const catalog = catalogDir ? loadCatalogDir(catalogDir) : load.catalog;
  const client = new OciClient({ url: registry.url, ca_pem: registry.caPem });
  for (const [service, version] of versions)
    for (const a of catalog.artifacts(service, version)) {
      // The file the catalog pins, from the Debian package it names (installed on this machine).
      const pin = a.platforms.find((p) => p.architecture === 'amd64');
      if (!pin?.available) throw new Error(`${a.key} has no amd64 build`);
      // A package artifact is the .deb itself, fetched by the bundle builder: those services come in a bundle.
      const path = pin.source.debian.path;
      if (path === undefined) throw new Error(`${a.key} is a Debian package: push it with a bundle`);
      await pushArtifactFiles(client, a, [{ architecture: 'amd64', path }]);
    }
}

/**
 * Boots `count` hosts and enrols them: `layout` names, per cluster, how many of the hosts (in order) it takes;
 * the first cluster is the harness's own.
 */
export async function serviceHosts(
  layout: number[],
  versions: [string, string][],
  opts: { catalogDir?: string } = {},
): Promise<ServiceHosts> {
  const work = tempDir('navin-service-hosts-');
  const count = layout.reduce((a, b) => a + b, 0);
  const debDir = join(work.path, 'deb');
  const [suite] = await Promise.all([
    bootHosts(count),
    promisify(execFile)(process.execPath, [join(REPO_ROOT, 'agent/node/build-deb.mjs'), '--out', debDir]),
  ]);
  let registry: TestRegistry | undefined;
  let h: HostsHarness | undefined;
  try {
    registry = await startRegistry({ address: suite.bridgeAddress });
    h = await hostsHarness({ gatewayHost: suite.bridgeAddress, catalogDir: opts.catalogDir });
    const harness = h;
    const set = await harness.api('PUT', '/api/v1/settings/mirror', { url: registry.url, ca_pem: registry.caPem });
    if (set.status !== 200) throw new Error(`mirror settings: ${JSON.stringify(set.body)}`);
    await pushServiceArtifacts(registry, versions, opts.catalogDir);
    const ids = new Map<string, string>();
    const clusters = [harness.clusterId];
    for (let i = 1; i < layout.length; i++) {
      const c = await harness.api('POST', '/api/v1/clusters', { name: `edge-hosts-${i}`, kind: 'hosts', profile: 'development' });
      if (c.status !== 201) throw new Error(`cluster: ${JSON.stringify(c.body)}`);
      clusters.push(c.body.id);
    }
    const owner = layout.flatMap((n, c) => Array.from({ length: n }, () => clusters[c]!));
    await Promise.all(
      suite.hosts.map(async (host, i) => {
        const added = await harness.api('POST', `/api/v1/clusters/${owner[i]}/hosts`, { name: host.name, address: host.address });
        if (added.status !== 201) throw new Error(`add host: ${JSON.stringify(added.body)}`);
        const identity = await harness.api('POST', `/api/v1/hosts/${added.body.id}/agent`, {
          gateway_url: harness.gatewayUrl,
          server_name: 'localhost',
          offline_after_s: 120,
        });
        if (identity.status !== 201) throw new Error(`identity: ${JSON.stringify(identity.body)}`);
        ids.set(host.name, added.body.id);
        const local = join(work.path, host.name);
        mkdirSync(local, { recursive: true });
        for (const [f, text] of Object.entries(identity.body.files as Record<string, string>))
          writeFileSync(join(local, f), text, { mode: 0o600 });
        await host.copyIn(join(debDir, DEB), `/root/install/${DEB}`);
        for (const f of Object.keys(identity.body.files)) await host.copyIn(join(local, f), `/root/install/${f}`);
        for (const command of identity.body.install_commands as string[]) await sh(host, `cd /root/install && ${command}`, 'y\n');
      }),
    );
    await until(
      'every host connected with its facts',
      async () => {
        const lists = await Promise.all(clusters.map((c) => harness.api('GET', `/api/v1/clusters/${c}/hosts`)));
        const items = lists.flatMap((l) => l.body.items as { state: string; facts: unknown }[]);
        return items.length === count && items.every((x) => x.state === 'connected' && x.facts) ? true : undefined;
      },
      90_000,
      500,
    );
    return {
      suite,
      hosts: suite.hosts,
      h: harness,
      registry,
      ids,
      clusters,
      async close() {
        await harness.close();
        await registry?.stop();
        await suite.close();
        work.remove();
      },
    };
  } catch (error) {
    await h?.close().catch(() => undefined);
    await registry?.stop().catch(() => undefined);
    await suite.close().catch(() => undefined);
    work.remove();
    throw error;
  }
}
