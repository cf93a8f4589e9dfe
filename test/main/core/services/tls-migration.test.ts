// The phases of a migration to TLS from the real catalog: the keys and CSRs first, then one host at a time; etcd
// first serves its clients over TLS with its peers left http, then moves its peers to https member by member, the
// member ids its readiness check listed written into each `etcdctl member update`.
import { describe, expect, it } from 'vitest';
import { loadBuiltinCatalog } from '../../../../main/core/catalog/catalog-builtin';
import { sha256Hex } from '../../../../main/core/catalog/catalog-templates';
import type { Catalog } from '../../../../main/core/catalog/catalog';
import type { PlanInput } from '../../../../main/core/services/service-plan';
import { CERTIFICATES_PHASE } from '../../../../main/core/services/service-tls';
import type { OperationPhase, OperationRecord } from '../../../../main/core/services/services-tables';
import {
  fillMemberIds,
  refuseTlsMigration,
  MEMBER_IDS_PHASE,
  MEMBER_UPDATE_TASK,
  tlsMigrationPhases,
} from '../../../../main/core/services/tls-migration';
import { DEFAULT_MANAGED_ROOTS, isManagedUnit } from '../../../../main/wire/node-agent';
import { planProblem, type PlanTask } from '../../../../main/wire/plan';

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
  mirror: { url: 'https://mirror.example:5000/team', ca_pem: null },
  ...over,
});
const task = (tasks: PlanTask[], id: string): any => tasks.find((t) => t.id === id);
const config = (phase: OperationPhase): string => task(phase.plans[0]!.args.tasks, 'write:config').content;
const line = (text: string, key: string): string => text.split('\n').find((l) => l.startsWith(`${key}:`))!;

describe('etcd moved to TLS', () => {
  const phases = tlsMigrationPhases(input());

  it('walks the members one at a time: client TLS on each, the member ids, peer TLS on each, then readiness', () => {
    expect(phases.map((p) => p.name)).toEqual([
      CERTIFICATES_PHASE,
      'client TLS on member 1 of 3',
      'client TLS on member 2 of 3',
      'client TLS on member 3 of 3',
      MEMBER_IDS_PHASE,
      'peer TLS on member 1 of 3',
      'peer TLS on member 2 of 3',
      'peer TLS on member 3 of 3',
      'readiness and functional test',
    ]);
    expect(phases[0]!.plans.map((p) => p.host_id)).toEqual(['id-a', 'id-b', 'id-c']);
    // After the certificates, no phase restarts more than one member: two of three keep the quorum.
    for (const phase of phases.slice(1)) expect(phase.plans).toHaveLength(1);
    expect([1, 2, 3, 5, 6, 7].map((i) => phases[i]!.plans[0]!.host_id)).toEqual(['id-a', 'id-b', 'id-c', 'id-a', 'id-b', 'id-c']);
    for (const phase of phases) for (const p of phase.plans) expect(planProblem(p.args, DEFAULT_MANAGED_ROOTS, isManagedUnit)).toBeNull();
  });

  it('first serves clients over TLS and gets its peer certificate, its peer URLs left http so the others still reach it', () => {
    const tasks = phases[2]!.plans[0]!.args.tasks;
    expect(tasks.map((t) => t.id)).toEqual([
      'write:tls-cert',
      'write:tls-ca',
      'write:config',
      'write:unit',
      'daemon-reload',
      'restart',
      'liveness',
      'watch',
    ]);
    const text = config(phases[2]!);
    expect(task(tasks, 'write:config').sha256).toBe(sha256Hex(text));
    expect(line(text, 'listen-client-urls')).toBe('listen-client-urls: https://198.18.5.11:2379');
    expect(line(text, 'listen-peer-urls')).toBe('listen-peer-urls: http://198.18.5.11:2380');
    expect(line(text, 'initial-advertise-peer-urls')).toBe('initial-advertise-peer-urls: http://198.18.5.11:2380');
    expect(line(text, 'initial-cluster')).not.toContain('https://');
    // The peer certificate is there for dialling the members already on https.
    expect(text).toContain('peer-transport-security:');
    // Its liveness is awaited over TLS before the next member restarts.
    expect(task(tasks, 'liveness')).toMatchObject({ retry_for_s: 60, check: { kind: 'etcd.health', params: { tls: expect.any(Object) } } });
  });

  it('then listens for peers over https and moves its peer URL in the member list with etcdctl, over TLS', () => {
    const tasks = phases[6]!.plans[0]!.args.tasks;
    expect(tasks.map((t) => t.id)).toEqual([
      'write:config',
      'write:unit',
      'daemon-reload',
      'restart',
      'liveness',
      MEMBER_UPDATE_TASK,
      'liveness:peers-moved',
      'watch',
    ]);
    expect(line(config(phases[6]!), 'listen-peer-urls')).toBe('listen-peer-urls: https://198.18.5.11:2380');
    expect(task(tasks, MEMBER_UPDATE_TASK).argv).toEqual([
      '/opt/navin/etcd/3.4.23-1/etcdctl',
      '--endpoints=https://198.18.5.10:2379,https://198.18.5.11:2379,https://198.18.5.12:2379',
      '--cacert=/etc/navin/etcd/tls/ca.crt',
      '--cert=/etc/navin/etcd/tls/tls.crt',
      '--key=/etc/navin/etcd/tls/tls.key',
      '--command-timeout=30s',
      'member',
      'update',
      '<member id of host-b>',
      '--peer-urls=https://198.18.5.11:2380',
    ]);
  });

  const op = (): OperationRecord => ({ id: 'op-1', phase: 4, phases: structuredClone(phases) }) as unknown as OperationRecord;
  const readiness = (members: { id: string; name: string }[]) => [
    {
      host_id: 'id-a',
      command: { result: { tasks: [{ id: 'readiness', status: 'succeeded', output: { check: { evidence: { members } } } }] } },
    },
  ];

  it('writes the member ids the readiness check listed into the member updates, recorded as they will be signed', () => {
    const replaced: [number, OperationPhase['plans']][] = [];
    const record = op();
    const failure = fillMemberIds(
      { tables: { services: { replacePlans: (_id, k, plans) => void replaced.push([k, plans]) } } },
      record,
      readiness([
        { id: 'aa01', name: 'host-a' },
        { id: 'bb02', name: 'host-b' },
        { id: 'cc03', name: 'host-c' },
      ]),
    );
    expect(failure).toBeNull();
    expect(replaced.map(([k]) => k)).toEqual([5, 6, 7, 8]);
    const update = (k: number) => task(record.phases[k]!.plans[0]!.args.tasks, MEMBER_UPDATE_TASK).argv[8];
    expect([5, 6, 7].map(update)).toEqual(['aa01', 'bb02', 'cc03']);
    expect(replaced[1]![1]).toEqual(record.phases[6]!.plans);
  });

  it('fails on a member the check did not list, naming it, and records nothing', () => {
    const replaced: number[] = [];
    const failure = fillMemberIds(
      { tables: { services: { replacePlans: (_id, k) => void replaced.push(k) } } },
      op(),
      readiness([
        { id: 'aa01', name: 'host-a' },
        { id: 'cc03', name: 'host-c' },
      ]),
    );
    expect(failure).toMatchObject({ host: 'host-b', message: expect.stringContaining('no member host-b') });
    expect(replaced).toEqual([]);
  });
});

describe('NATS moved to TLS', () => {
  it('one server at a time: its certificates, its configuration with TLS on clients, routes and monitoring, a restart', () => {
    const phases = tlsMigrationPhases(input({ service: 'nats', version: '2.9.10-1' }));
    expect(phases.map((p) => p.name)).toEqual([
      CERTIFICATES_PHASE,
      'TLS on host 1 of 3',
      'TLS on host 2 of 3',
      'TLS on host 3 of 3',
      'readiness and functional test',
    ]);
    const tasks = phases[1]!.plans[0]!.args.tasks;
    expect(tasks.map((t) => t.id)).toEqual([
      'write:tls-cert',
      'write:tls-ca',
      'write:config',
      'write:unit',
      'daemon-reload',
      'restart',
      'liveness',
      'watch',
    ]);
    const text = config(phases[1]!);
    expect(text).toContain('https: "198.18.5.10:8222"');
    // Clients and the cluster's routes alike.
    expect(text.match(/tls \{/g)).toHaveLength(2);
    for (const phase of phases) for (const p of phase.plans) expect(planProblem(p.args, DEFAULT_MANAGED_ROOTS, isManagedUnit)).toBeNull();
  });
});

describe('what a rolling move to TLS refuses', () => {
  it('a NATS cluster of several servers, whose first moved server would lose its routes; a single server and etcd pass', () => {
    expect(() => refuseTlsMigration('nats', 3)).toThrow(expect.objectContaining({ code: 'tls_unsupported' }));
    expect(() => refuseTlsMigration('nats', 1)).not.toThrow();
    expect(() => refuseTlsMigration('etcd', 3)).not.toThrow();
  });
});
