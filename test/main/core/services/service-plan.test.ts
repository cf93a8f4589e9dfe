// The plans of a service operation, built from the real catalog: what each phase does on which host, that every
// task passes the wire's own plan check (as the agent will judge it), and the checks pointed at each instance.
import { describe, expect, it } from 'vitest';
import { loadBuiltinCatalog } from '../../../../main/core/catalog/catalog-builtin';
import type { Catalog } from '../../../../main/core/catalog/catalog';
import { blobUrl, operationPhases, rollingPhases, type PlanInput } from '../../../../main/core/services/service-plan';
import { DEFAULT_MANAGED_ROOTS, isManagedUnit } from '../../../../main/wire/node-agent';
import { planProblem } from '../../../../main/wire/plan';
import type { CoreError } from '../../../../main/core/errors';

const load = loadBuiltinCatalog();
if (!load.ok) throw new Error('the built-in catalog is invalid');
const catalog: Catalog = load.catalog;

const hosts = ['a', 'b', 'c'].map((n, i) => ({ id: `id-${n}`, name: `host-${n}`, address: `198.18.5.${i + 10}`, architecture: 'amd64' }));
const input = (over: Partial<PlanInput> = {}): PlanInput => ({
  catalog,
  clusterId: '0123456789abcdef',
  service: 'etcd',
  version: '3.4.23-1',
  hosts,
  settings: {},
  mirror: { url: 'https://mirror.example:5000/team', ca_pem: '-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n' },
  ...over,
});

describe('service operation plans', () => {
  it('an install runs on every host at once, then readiness and the functional test from the first host', () => {
    const phases = operationPhases('install', input());
    expect(phases.map((p) => p.plans.map((x) => x.host_id))).toEqual([['id-a', 'id-b', 'id-c'], ['id-a']]);
    for (const phase of phases) for (const p of phase.plans) expect(planProblem(p.args, DEFAULT_MANAGED_ROOTS, isManagedUnit)).toBeNull();
    const b = phases[0]!.plans[1]!.args.tasks;
    expect(b.map((t) => t.id)).toEqual([
      'fetch:etcd',
      'fetch:etcdctl',
      'write:config',
      'write:unit',
      'daemon-reload',
      'enable',
      'restart',
      'liveness',
      'watch',
    ]);
    const fetch = b[0] as { url: string; digest: string; path: string; mode: string };
    const pin = catalog.artifacts('etcd', '3.4.23-1')[0]!.platforms[0] as { digest: string };
    expect(fetch).toMatchObject({ digest: pin.digest, path: '/opt/navin/etcd/3.4.23-1/etcd', mode: '0755' });
    // The mirror's path prefix comes before the repository, as the OCI client names it.
    expect(fetch.url).toBe(`https://mirror.example:5000/v2/team/navin/etcd/etcd/blobs/${pin.digest}`);
    // Each member's config names itself and lists all three; its liveness is checked on its own address.
    const config = (b[2] as { content: string }).content;
    expect(config).toContain('name: host-b');
    expect(config).toContain('listen-client-urls: http://198.18.5.11:2379');
    expect(config).toContain(
      'initial-cluster: host-a=http://198.18.5.10:2380,host-b=http://198.18.5.11:2380,host-c=http://198.18.5.12:2380',
    );
    expect((b[7] as { check: unknown }).check).toEqual({
      kind: 'etcd.health',
      params: { port: 2379, host: '198.18.5.11', timeout_ms: 5000 },
    });
    // Right after the restart the liveness may wait for the member to listen; the checks asked for later do not.
    expect((b[7] as { retry_for_s?: number }).retry_for_s).toBe(60);
    expect((operationPhases('check', input())[0]!.plans[0]!.args.tasks[0] as { retry_for_s?: number }).retry_for_s).toBeUndefined();
    // Then the agent watches the same check on its own, at the catalog's interval.
    expect(b[8]).toMatchObject({
      kind: 'liveness.watch',
      unit: 'navin-etcd.service',
      interval_s: 15,
      check: (b[7] as { check: unknown }).check,
    });
    const final = phases[1]!.plans[0]!.args.tasks as unknown as { id: string; check: { kind: string; params: { endpoints: string[] } } }[];
    expect(final.map((t) => [t.id, t.check.kind])).toEqual([
      ['readiness', 'etcd.cluster'],
      ['functional', 'etcd.kv'],
    ]);
    expect((final[0] as { retry_for_s?: number }).retry_for_s).toBe(60);
    expect((final[1] as { retry_for_s?: number }).retry_for_s).toBeUndefined();
    expect((operationPhases('check', input())[1]!.plans[0]!.args.tasks[0] as { retry_for_s?: number }).retry_for_s).toBeUndefined();
    expect(final[1]!.check.params.endpoints).toEqual(hosts.map((h) => `http://${h.address}:2379`));
  });

  it('a setting of the operator reaches the rendered config; the unit runs as the catalog’s dynamic user', () => {
    const tasks = operationPhases('configuration', input({ settings: { auto_compaction_retention: '2' } }))[0]!.plans[0]!.args.tasks;
    expect(tasks.some((t) => t.kind === 'artifact.fetch')).toBe(false);
    expect((tasks.find((t) => t.id === 'write:config') as { content: string }).content).toContain('auto-compaction-retention: "2"');
    const unit = (tasks.find((t) => t.id === 'write:unit') as { content: string }).content;
    expect(unit).toContain('User=navin-etcd');
    expect(unit).toContain('DynamicUser=yes');
    expect(unit).toContain('StateDirectory=navin/etcd');
  });

  it('actions: stop has no check; start and restart end with the checks; uninstall keeps the data', () => {
    expect(operationPhases('stop', input()).map((p) => p.plans[0]!.args.tasks.map((t) => t.kind))).toEqual([['systemd.stop']]);
    expect(operationPhases('restart', input()).map((p) => p.name)).toEqual(['restart', 'readiness and functional test']);
    const uninstall = operationPhases('uninstall', input())[0]!.plans[0]!.args.tasks;
    expect(uninstall.map((t) => t.kind)).toEqual([
      'systemd.stop',
      'liveness.unwatch',
      'systemd.disable',
      'unit.remove',
      'systemd.daemon_reload',
      'file.remove',
      'file.remove',
      'file.remove',
    ]);
    expect(uninstall.some((t) => 'path' in t && t.path.startsWith('/var/lib'))).toBe(false);
    expect(operationPhases('functional_test', input()).map((p) => p.plans.map((x) => x.args.tasks.map((t) => t.id)))).toEqual([
      [['functional']],
    ]);
  });

  it('NATS tests its JetStream store; the node exporter is checked on its own address', () => {
    const nats = operationPhases('install', input({ service: 'nats', version: '2.9.10-1', hosts: hosts.slice(0, 1) }));
    expect((nats[1]!.plans[0]!.args.tasks[1] as { check: { params: unknown } }).check.params).toMatchObject({ jetstream: true });
    const ne = operationPhases('check', input({ service: 'node-exporter', version: '1.5.0-1', hosts: hosts.slice(0, 1) }));
    expect((ne[0]!.plans[0]!.args.tasks[0] as { check: unknown }).check).toMatchObject({
      kind: 'http',
      params: { port: 9100, host: '198.18.5.10' },
    });
  });

  it('refuses what cannot be planned: no mirror, an architecture without a build, an unknown version', () => {
    const code = (f: () => unknown): string | undefined => {
      try {
        f();
      } catch (e) {
        return (e as CoreError).code;
      }
      return undefined;
    };
    expect(code(() => operationPhases('install', input({ mirror: null })))).toBe('mirror_not_configured');
    expect(code(() => operationPhases('install', input({ hosts: [{ ...hosts[0]!, architecture: 's390x' }] })))).toBe('invalid_field');
    expect(code(() => operationPhases('install', input({ version: '9.9.9' })))).toBe('not_found');
    expect(code(() => operationPhases('install', input({ hosts: [] })))).toBe('invalid_field');
    // A configuration needs no mirror: nothing is fetched.
    expect(code(() => operationPhases('configuration', input({ mirror: null })))).toBeUndefined();
  });

  it('blob URLs keep the mirror origin and its prefix', () => {
    const a = catalog.artifacts('nats', '2.9.10-1')[0]!;
    expect(blobUrl('https://m:5000/', a, 'sha256:ab')).toBe('https://m:5000/v2/navin/nats/nats-server/blobs/sha256:ab');
  });

  it('an upgrade walks the hosts canary first and carries the plans that bring the previous version back', () => {
    const { phases, rollback } = rollingPhases(input({ version: '3.4.23-2' }), '3.4.23-1');
    expect(phases.map((p) => [p.name, p.plans.map((x) => x.host_id)])).toEqual([
      ['canary', ['id-a']],
      ['host 2 of 3', ['id-b']],
      ['host 3 of 3', ['id-c']],
      ['readiness and functional test', ['id-a']],
    ]);
    const canary = phases[0]!.plans[0]!.args.tasks;
    expect(canary.map((t) => t.id)).toEqual([
      'fetch:etcd',
      'fetch:etcdctl',
      'stop',
      'write:config',
      'write:unit',
      'daemon-reload',
      'enable',
      'start',
      'liveness',
      'watch',
      'functional',
    ]);
    // Only the canary runs the functional test on its own; the others are judged live, then the service as a whole.
    expect(phases[1]!.plans[0]!.args.tasks.map((t) => t.id)).not.toContain('functional');
    expect((canary.find((t) => t.id === 'write:unit') as { content: string }).content).toContain('/opt/navin/etcd/3.4.23-2/etcd');
    // The way back, per host: no fetch (both versions live side by side), the previous files and unit.
    expect(rollback.map((r) => r.host_id)).toEqual(['id-a', 'id-b', 'id-c']);
    for (const r of rollback) expect(planProblem(r.args, DEFAULT_MANAGED_ROOTS, isManagedUnit)).toBeNull();
    const back = rollback[0]!.args.tasks;
    expect(back.some((t) => t.kind === 'artifact.fetch')).toBe(false);
    expect((back.find((t) => t.id === 'write:unit') as { content: string }).content).toContain('/opt/navin/etcd/3.4.23-1/etcd');
    expect((back.find((t) => t.id === 'write:config') as { content: string }).content).not.toContain('auto-compaction-mode');
    // A rollback walks the same way to the previous version, with nothing to seal and nothing to fetch.
    const walk = rollingPhases(input({ version: '3.4.23-1' }), null);
    expect(walk.rollback).toEqual([]);
    expect(walk.phases[0]!.plans[0]!.args.tasks.some((t) => t.kind === 'artifact.fetch')).toBe(false);
  });
});
