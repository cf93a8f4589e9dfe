// PostgreSQL and MariaDB on a booted Debian 12 host that has neither: a signed bundle carries their Debian
// packages (the .deb files the catalog pins by sha256) into the mirror, and an install through the API fetches
// them, installs them offline with dpkg, writes Navin's own configuration and unit, and both servers pass
// liveness, readiness and the functional test over TLS with the cluster's service CA.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildBundle } from '../../../../main/core/bundle/bundle-build';
import { importBundle } from '../../../../main/core/bundle/bundle-import';
import { defaultPackagesDir } from '../../../../main/core/bundle/debian-packages';
import { loadCatalogDir } from '../../../../main/core/catalog/catalog-loader';
import { OciClient } from '../../../../main/core/mirror/oci-client';
import { nodeEd25519 } from '../../../../main/wire/ed25519-node';
import { releaseSigner } from '../../../support/bundles';
import { REPO_ROOT } from '../../../support/cli';
import { describeHosts, type TestHost } from '../../../support/hosts';
import { operate, serviceHosts, sh, type ServiceHosts } from '../../../support/service-hosts';
import { tempDir } from '../../../support/temp-dir';

const POSTGRESQL = '15.20.0-1';
const MARIADB = '10.11.19-1';

describeHosts('databases installed offline from a signed bundle on a booted host', () => {
  let s: ServiceHosts;
  let host: TestHost;
  const work = tempDir('navin-databases-');

  beforeAll(async () => {
    s = await serviceHosts([1], []);
    host = s.hosts[0]!;
    const catalog = loadCatalogDir(join(REPO_ROOT, 'resources/catalog'));
    const release = releaseSigner();
    const out = join(work.path, 'databases.tar');
    await buildBundle({
      catalog,
      out,
      signer: release,
      builderVersion: 'test',
      services: ['postgresql', 'mariadb'],
      packages: { dir: defaultPackagesDir() },
    });
    const client = new OciClient({ url: s.registry.url, ca_pem: s.registry.caPem });
    try {
      await importBundle({ file: out, client, trustedKeys: new Map([[release.keyId, release.publicKey]]), impl: nodeEd25519 });
    } finally {
      client.close();
    }
  }, 900_000);

  afterAll(async () => {
    await s?.close();
    work.remove();
  }, 180_000);

  const dpkgHas = async (pkg: string): Promise<boolean> =>
    (await host.exec(['dpkg-query', '-W', '-f=${db:Status-Abbrev}', pkg], { timeoutMs: 30_000 })).stdout.startsWith('ii');

  /** count: the packages of the version; shared: those an install before this one on the host brought already. */
  async function installAndCheck(service: string, version: string, count: number, shared: string[]): Promise<void> {
    const op = await operate(
      s.h,
      'POST',
      `/api/v1/clusters/${s.clusters[0]}/services`,
      { service, version, hosts: [host.name], tls: true },
      900_000,
    );
    const last = op.phases.at(-1)?.plans?.[0]?.tasks?.map((t: any) => [t.id, t.message ?? null, t.output]);
    expect(op.state, JSON.stringify({ message: op.message, last }).slice(0, 8000)).toBe('succeeded');
    expect(op.phases.map((p: any) => p.name)).toEqual(['certificates', 'install', 'readiness and functional test']);
    const packages = op.phases[1].plans[0].tasks.find((t: any) => t.id === 'packages');
    expect(packages.status).toBe('succeeded');
    expect(packages.output.installed).toHaveLength(count - shared.length);
    expect(packages.output.already_installed.map((p: string) => p.split('=')[0]).sort()).toEqual([...shared].sort());

    const v = (await s.h.api('GET', `/api/v1/clusters/${s.clusters[0]}/services/${service}`)).body;
    expect(v.state).toBe('running');
    const hostId = s.ids.get(host.name)!;
    for (const o of [v.checks.liveness[hostId].outcome, v.checks.readiness.outcome, v.checks.functional.outcome]) {
      expect(o.status, JSON.stringify(o)).toBe('pass');
      // TLS as the server itself saw the session.
      expect(o.evidence.tls?.protocol, o.kind).toMatch(/^TLSv1\.[23]$/);
    }
    expect(v.checks.functional.outcome.steps.map((x: any) => x.name)).toEqual([
      'connect',
      'create table',
      'insert',
      'read back',
      'drop table',
    ]);
    expect(JSON.stringify(op)).not.toContain('PRIVATE KEY');
  }

  test("PostgreSQL 15: its packages installed offline, Debian's own service left disabled, every check passing over TLS", async () => {
    expect(await dpkgHas('postgresql-15')).toBe(false);
    await installAndCheck('postgresql', POSTGRESQL, 23, []);
    expect(await dpkgHas('postgresql-15')).toBe(true);
    expect((await sh(host, 'systemctl is-active navin-postgresql.service')).trim()).toBe('active');
    expect((await host.exec(['systemctl', 'is-enabled', 'postgresql.service'], { timeoutMs: 30_000 })).stdout.trim()).toBe('disabled');
    // A plaintext session is refused: only hostssl lets the check role in.
    const plain = await host.exec(
      ['sh', '-c', `PGSSLMODE=disable /usr/bin/psql -h ${host.address} -U navin_check navin_check -c 'select 1'`],
      {
        timeoutMs: 30_000,
      },
    );
    expect(plain.code).not.toBe(0);
    expect(plain.stderr).toMatch(/no pg_hba.conf entry|no encryption/);
  }, 1_200_000);

  test('MariaDB 10.11: its packages installed offline, every check passing over TLS, plaintext refused', async () => {
    expect(await dpkgHas('mariadb-server')).toBe(false);
    // PostgreSQL's install brought three of its packages already.
    await installAndCheck('mariadb', MARIADB, 27, ['libedit2', 'libreadline8', 'readline-common']);
    expect((await sh(host, 'systemctl is-active navin-mariadb.service')).trim()).toBe('active');
    expect((await host.exec(['systemctl', 'is-enabled', 'mariadb.service'], { timeoutMs: 30_000 })).stdout.trim()).toBe('disabled');
    const plain = await host.exec(['sh', '-c', `mariadb --skip-ssl -h ${host.address} -u navin_check navin_check -e 'select 1'`], {
      timeoutMs: 30_000,
    });
    expect(plain.code).not.toBe(0);
  }, 1_200_000);
});
