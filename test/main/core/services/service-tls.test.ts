// The TLS of a service's operation, from the real catalog: the certificates phase first (the key made on each
// host, a CSR for the host's names), the install phase writing the certificates and rendering the descriptor with
// TLS (https, the key handed over by systemd, the checks shown the files); plaintext only under development; the
// CSRs signed by a real service CA and written into the next phase's files.
import { X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupPhase } from '../../../../main/core/services/backup-plan';
import { loadBuiltinCatalog } from '../../../../main/core/catalog/catalog-builtin';
import { sha256Hex } from '../../../../main/core/catalog/catalog-templates';
import type { Catalog } from '../../../../main/core/catalog/catalog';
import { Certificates } from '../../../../main/core/certificates/certificates';
import type { CoreError } from '../../../../main/core/errors';
import { operationPhases, type PlanInput } from '../../../../main/core/services/service-plan';
import { CERTIFICATES_PHASE, signCertificates, tlsChoice, withCertificates } from '../../../../main/core/services/service-tls';
import { ServicesTables } from '../../../../main/core/services/services-tables';
import type { Store } from '../../../../main/core/store/store';
import { DEFAULT_MANAGED_ROOTS, isManagedUnit } from '../../../../main/wire/node-agent';
import { planProblem, type PlanTask } from '../../../../main/wire/plan';
import { ManualClock } from '../../../support/clock';
import { describeWithBinaries } from '../../../support/config-parsers';
import { tempDir } from '../../../support/temp-dir';
import { addCluster, addHost, openCertificatesStore, opensslCsr, testProtector } from '../certificates/certificates-fixture';

const load = loadBuiltinCatalog();
if (!load.ok) throw new Error('the built-in catalog is invalid');
const catalog: Catalog = load.catalog;

const hosts = ['a', 'b', 'c'].map((n, i) => ({ id: `id-${n}`, name: `host-${n}`, address: `198.18.5.${i + 10}`, architecture: 'amd64' }));
const WITH_TLS = { tls: true, certificates: true };
const input = (over: Partial<PlanInput> = {}): PlanInput => ({
  catalog,
  clusterId: '0123456789abcdef',
  service: 'etcd',
  version: '3.4.23-1',
  hosts,
  settings: {},
  mirror: { url: 'https://mirror.example:5000/team', ca_pem: null },
  tls: WITH_TLS,
  ...over,
});
const task = (tasks: PlanTask[], id: string): any => tasks.find((t) => t.id === id);

describe('an operation with TLS', () => {
  it('etcd: the keys and CSRs first on every host, then the install writes the certificates and serves https with client certificates', () => {
    const phases = operationPhases('install', input());
    expect(phases.map((p) => p.name)).toEqual([CERTIFICATES_PHASE, 'install', 'readiness and functional test']);
    for (const phase of phases) for (const p of phase.plans) expect(planProblem(p.args, DEFAULT_MANAGED_ROOTS, isManagedUnit)).toBeNull();
    // Each host makes its own key, under the instance's config dir, for its own name and address.
    expect(phases[0]!.plans.map((p) => p.host_id)).toEqual(['id-a', 'id-b', 'id-c']);
    expect(phases[0]!.plans[1]!.args.tasks).toEqual([
      expect.objectContaining({
        kind: 'tls.csr',
        key_path: '/etc/navin/etcd/tls/tls.key',
        common_name: 'etcd.host-b',
        dns_names: ['host-b'],
        ip_addresses: ['198.18.5.11'],
        rotate: false,
      }),
    ]);
    const b = phases[1]!.plans[1]!.args.tasks;
    expect(b.map((t) => t.id).slice(0, 5)).toEqual(['fetch:etcd', 'fetch:etcdctl', 'write:tls-cert', 'write:tls-ca', 'write:config']);
    expect(task(b, 'write:tls-cert')).toMatchObject({ kind: 'file.write', path: '/etc/navin/etcd/tls/tls.crt', mode: '0644' });
    expect(task(b, 'write:tls-ca')).toMatchObject({ kind: 'file.write', path: '/etc/navin/etcd/tls/ca.crt', mode: '0644' });
    // No task writes or returns the key: it stays where tls.csr made it.
    expect(b.some((t) => 'path' in t && t.path.endsWith('tls.key'))).toBe(false);
    const config = task(b, 'write:config').content as string;
    expect(config).toContain('listen-client-urls: https://198.18.5.11:2379');
    expect(config).toContain('listen-peer-urls: https://198.18.5.11:2380');
    expect(config).toContain(
      'initial-cluster: host-a=https://198.18.5.10:2380,host-b=https://198.18.5.11:2380,host-c=https://198.18.5.12:2380',
    );
    expect(config.match(/key-file: \/run\/credentials\/navin-etcd\.service\/tls\.key/g)).toHaveLength(2);
    expect(config.match(/client-cert-auth: true/g)).toHaveLength(2);
    expect(config).toContain('cert-file: /etc/navin/etcd/tls/tls.crt');
    expect(task(b, 'write:unit').content).toContain('LoadCredential=tls.key:/etc/navin/etcd/tls/tls.key');
    // The checks show the member's certificate, as etcd asks of every client.
    const files = {
      ca_file: '/etc/navin/etcd/tls/ca.crt',
      cert_file: '/etc/navin/etcd/tls/tls.crt',
      key_file: '/etc/navin/etcd/tls/tls.key',
    };
    expect(task(b, 'liveness').check).toEqual({
      kind: 'etcd.health',
      params: { port: 2379, host: '198.18.5.11', timeout_ms: 5000, tls: files },
    });
    const final = phases[2]!.plans[0]!.args.tasks;
    expect(task(final, 'readiness').check.params).toEqual({
      endpoints: hosts.map((h) => `https://${h.address}:2379`),
      tls: files,
      timeout_ms: 10_000,
    });
    expect(task(final, 'functional').check.params.tls).toEqual(files);
  });

  it('without TLS (the development profile’s default): no certificates phase, http, no credential and no tls in the checks', () => {
    const phases = operationPhases('install', input({ tls: undefined }));
    expect(phases.map((p) => p.name)).toEqual(['install', 'readiness and functional test']);
    const b = phases[0]!.plans[1]!.args.tasks;
    expect(b.some((t) => t.id.startsWith('write:tls'))).toBe(false);
    expect(task(b, 'write:config').content).toContain('listen-client-urls: http://198.18.5.11:2379');
    expect(task(b, 'write:config').content).not.toContain('client-transport-security');
    expect(task(b, 'write:unit').content).not.toContain('LoadCredential');
    expect(task(b, 'liveness').check.params.tls).toBeUndefined();
  });

  it('NATS: TLS on the client port, the monitoring port and the routes; the node exporter serves its metrics over TLS', () => {
    const nats = operationPhases('install', input({ service: 'nats', version: '2.9.10-1' }));
    expect(nats[0]!.name).toBe(CERTIFICATES_PHASE);
    const tasks = nats[1]!.plans[0]!.args.tasks;
    const config = task(tasks, 'write:config').content as string;
    expect(config).toContain('https: "198.18.5.10:8222"');
    expect(config).not.toContain('http: ');
    // One tls block for clients, one inside the cluster block for the routes.
    expect(config.match(/key_file: "\/run\/credentials\/navin-nats\.service\/tls\.key"/g)).toHaveLength(2);
    expect(config.indexOf('cluster {')).toBeLessThan(config.lastIndexOf('tls {'));
    expect(task(tasks, 'write:unit').content).toContain('LoadCredential=tls.key:/etc/navin/nats/tls/tls.key');
    expect(task(tasks, 'liveness').check.params.tls).toEqual({ ca_file: '/etc/navin/nats/tls/ca.crt' });
    expect(task(nats[2]!.plans[0]!.args.tasks, 'functional').check.params).toMatchObject({
      endpoints: hosts.map((h) => `nats://${h.address}:4222`),
      tls: { ca_file: '/etc/navin/nats/tls/ca.crt' },
    });
    const ne = operationPhases('install', input({ service: 'node-exporter', version: '1.5.0-1', hosts: hosts.slice(0, 1) }));
    const ex = ne[1]!.plans[0]!.args.tasks;
    expect(task(ex, 'write:web-config').content).toContain('key_file: /run/credentials/navin-node-exporter.service/tls.key');
    expect(task(ex, 'liveness').check.params).toMatchObject({ scheme: 'https', tls: { ca_file: '/etc/navin/node-exporter/tls/ca.crt' } });
    expect(task(ex, 'watch').scrape).toEqual({ url: 'https://198.18.5.10:9100/metrics', ca_file: '/etc/navin/node-exporter/tls/ca.crt' });
  });

  it('later operations: a realign brings certificates again, a configuration only to hosts without, an uninstall removes the files', () => {
    expect(operationPhases('realign', input())[0]!.name).toBe(CERTIFICATES_PHASE);
    const configuration = operationPhases('configuration', input({ tls: { tls: true, certificates: false } }));
    expect(configuration.map((p) => p.name)).toEqual(['configuration', 'readiness and functional test']);
    expect(task(configuration[0]!.plans[0]!.args.tasks, 'write:config').content).toContain('https://');
    const uninstall = operationPhases('uninstall', input({ tls: { tls: true, certificates: false } }))[0]!.plans[0]!;
    expect(planProblem(uninstall.args, DEFAULT_MANAGED_ROOTS, isManagedUnit)).toBeNull();
    expect(uninstall.args.tasks.filter((t) => t.kind === 'file.remove').map((t) => (t as { path: string }).path)).toEqual(
      expect.arrayContaining(['/etc/navin/etcd/tls/tls.key', '/etc/navin/etcd/tls/tls.crt', '/etc/navin/etcd/tls/ca.crt']),
    );
  });

  it('the backup of an etcd with TLS shows etcdctl the member’s certificate; without TLS no empty argument is left', () => {
    const argv = (tls: PlanInput['tls']): string[] =>
      (
        backupPhase(input({ hosts: hosts.slice(0, 1), tls }), 'set-1').plans[0]!.args.tasks.find((t) => t.id.endsWith(':snapshot')) as {
          argv: string[];
        }
      ).argv;
    expect(argv(WITH_TLS)).toEqual(
      expect.arrayContaining([
        '--endpoints=https://198.18.5.10:2379',
        '--cacert=/etc/navin/etcd/tls/ca.crt',
        '--cert=/etc/navin/etcd/tls/tls.crt',
        '--key=/etc/navin/etcd/tls/tls.key',
      ]),
    );
    const plain = argv(undefined);
    expect(plain.slice(1)).toEqual([
      '--endpoints=http://198.18.5.10:2379',
      'snapshot',
      'save',
      expect.stringMatching(/etcd-snapshot\.db$/),
    ]);
  });
});

describe('whether a service runs with TLS', () => {
  const etcd = catalog.service('etcd')!;
  const none = (): { host_id: string }[] => [];
  const code = (f: () => unknown): string | undefined => {
    try {
      f();
    } catch (e) {
      return (e as CoreError).code;
    }
    return undefined;
  };

  it('an install: always under a profile other than development, there only when asked; plaintext elsewhere is refused', () => {
    const at = (profile: 'development' | 'standard', asked?: boolean) =>
      tlsChoice(etcd, 'install', { profile, asked, hostIds: ['id-a'], inUse: none });
    expect(at('standard')).toEqual({ tls: true, certificates: true });
    expect(at('development')).toEqual({ tls: false, certificates: false });
    expect(at('development', true)).toEqual({ tls: true, certificates: true });
    expect(code(() => at('standard', false))).toBe('invalid_field');
    // A service the catalog does not serve over TLS cannot be asked to.
    const plain = { ...etcd, supports_tls: false };
    expect(tlsChoice(plain, 'install', { profile: 'standard', hostIds: [], inUse: none })).toEqual({ tls: false, certificates: false });
    expect(code(() => tlsChoice(plain, 'install', { profile: 'development', asked: true, hostIds: [], inUse: none }))).toBe(
      'invalid_field',
    );
  });

  it('later operations keep what the install chose, read from the certificates in use, whatever the profile now', () => {
    const later = (action: string, holders: string[]) =>
      tlsChoice(etcd, action, { profile: 'standard', hostIds: ['id-a', 'id-b'], inUse: () => holders.map((host_id) => ({ host_id })) });
    expect(later('configuration', [])).toEqual({ tls: false, certificates: false });
    expect(later('configuration', ['id-a', 'id-b'])).toEqual({ tls: true, certificates: false });
    expect(later('configuration', ['id-a'])).toEqual({ tls: true, certificates: true });
    expect(later('realign', ['id-a', 'id-b'])).toEqual({ tls: true, certificates: true });
    expect(later('upgrade', ['id-a', 'id-b'])).toEqual({ tls: true, certificates: false });
  });
});

describeWithBinaries('the CSRs of a certificates phase, signed', ['openssl'], () => {
  let dir: ReturnType<typeof tempDir>;
  let store: Store;
  let certificates: Certificates;
  let cluster: string;
  const ids: string[] = [];
  const names = new Map<string, { name: string; address: string }>();

  beforeAll(() => {
    dir = tempDir('navin-service-tls-');
    const clock = new ManualClock();
    store = openCertificatesStore(join(dir.path, 'navin.db'), clock);
    certificates = new Certificates({ store, protector: testProtector(), clock });
    cluster = addCluster(store, 'edge');
    for (const [i, name] of ['host-a', 'host-b'].entries()) {
      const address = `198.18.5.${i + 10}`;
      const id = addHost(store, cluster, name, address);
      ids.push(id);
      names.set(id, { name, address });
    }
  });
  afterAll(() => {
    store?.close();
    dir?.remove();
  });

  const deps = () => ({ certificates, hosts: { get: (id: string) => names.get(id)! } });
  const receipt = (host_id: string, csr_pem: unknown) => ({
    host_id,
    command: { result: { tasks: [{ id: 'csr', status: 'succeeded', output: { csr_pem } }] } },
  });

  it('each host gets a certificate for its own names, whatever its CSR asked, written with the CA into the next phase', () => {
    // As the operation machine signs them: inside its transaction.
    const signed = store.tx(() =>
      signCertificates(
        deps(),
        { cluster_id: cluster, service: 'etcd' },
        ids.map((id) => receipt(id, opensslCsr(dir.path, { sans: 'DNS:evil.example' }).csrPem)),
      ),
    );
    if (!signed.ok) throw new Error(signed.message);
    const b = new X509Certificate(signed.signed.hosts.get(ids[1]!)!);
    expect(b.subjectAltName).toContain('DNS:host-b');
    expect(b.subjectAltName).toContain('IP Address:198.18.5.11');
    expect(b.subjectAltName).not.toContain('evil.example');
    // One CA for the cluster: every host's certificate is signed by the CA each host is given.
    for (const id of ids)
      expect(new X509Certificate(signed.signed.hosts.get(id)!).verify(new X509Certificate(signed.signed.ca_pem).publicKey)).toBe(true);
    expect(certificates.inUse(cluster, 'etcd').map((c) => c.host_id)).toEqual(expect.arrayContaining(ids));
    // The install phase's empty certificate files take them, each host its own, with the sha256 the agent checks.
    const phase = operationPhases('install', input({ hosts: ids.map((id, i) => ({ ...hosts[i]!, id })) }))[1]!;
    const filled = withCertificates(phase.plans, signed.signed);
    const cert = task(filled[1]!.args.tasks, 'write:tls-cert');
    expect(cert.content).toBe(signed.signed.hosts.get(ids[1]!));
    expect(cert.sha256).toBe(sha256Hex(cert.content));
    expect(task(filled[0]!.args.tasks, 'write:tls-ca').content).toBe(signed.signed.ca_pem);
    expect(task(phase.plans[1]!.args.tasks, 'write:tls-cert').content).toBe('');
  });

  it('the phase as recorded becomes the one signed: its certificate files hold what the hosts were sent', () => {
    const tables = new ServicesTables(store.db);
    const phases = operationPhases('install', input({ hosts: ids.map((id, i) => ({ ...hosts[i]!, id })) }));
    tables.insertOperation({
      id: 'op-1',
      cluster_id: cluster,
      service: 'etcd',
      action: 'install',
      version: '3.4.23-1',
      phases,
      requested_by: 'alice',
      created_at: new Date().toISOString(),
      from_version: null,
      sealed: null,
      backup_set_id: null,
    });
    const signed = { ca_pem: 'CA', hosts: new Map(ids.map((id) => [id, `CERT ${id}`])) };
    tables.replacePlans('op-1', 1, withCertificates(phases[1]!.plans, signed));
    const recorded = tables.operation('op-1')!.phases;
    expect(task(recorded[1]!.plans[0]!.args.tasks, 'write:tls-cert').content).toBe(`CERT ${ids[0]}`);
    expect(recorded[0]).toEqual(phases[0]);
    expect(recorded[2]).toEqual(phases[2]);
  });

  it('a host that returned no CSR, or one that does not verify, fails the phase on that host with the code', () => {
    const missing = signCertificates(deps(), { cluster_id: cluster, service: 'etcd' }, [receipt(ids[0]!, undefined)]);
    expect(missing).toMatchObject({ ok: false, host_id: ids[0], code: 'csr_invalid' });
    const garbage = signCertificates(deps(), { cluster_id: cluster, service: 'etcd' }, [receipt(ids[1]!, 'not a CSR')]);
    expect(garbage).toMatchObject({ ok: false, host_id: ids[1] });
    expect((garbage as { code: string }).code).toMatch(/^csr_/);
  });
});
