// The operation state machine at the end of a certificates phase: each host's signed certificate reaches that
// host's own phase, also when a migration to TLS gives every host a phase of its own after the next one.
import { describe, expect, it } from 'vitest';
import { loadBuiltinCatalog } from '../../../../main/core/catalog/catalog-builtin';
import { sha256Hex } from '../../../../main/core/catalog/catalog-templates';
import { advanceOperation, type OperationDeps } from '../../../../main/core/services/operation-machine';
import type { OperationPhase, OperationRecord } from '../../../../main/core/services/services-tables';
import { tlsMigrationPhases } from '../../../../main/core/services/tls-migration';
import type { PlanArgs, PlanTask } from '../../../../main/wire/plan';

const load = loadBuiltinCatalog();
if (!load.ok) throw new Error('the built-in catalog is invalid');

const hosts = ['a', 'b', 'c'].map((n, i) => ({ id: `id-${n}`, name: `host-${n}`, address: `198.18.6.${i + 10}`, architecture: 'amd64' }));
const CA = '-----BEGIN CERTIFICATE-----\nservice CA\n-----END CERTIFICATE-----\n';
const certOf = (hostId: string): string => `-----BEGIN CERTIFICATE-----\n${hostId}\n-----END CERTIFICATE-----\n`;

/** A running NATS migration to TLS over fakes of what the state machine reads and writes; every plan succeeds. */
function migration() {
  const phases = tlsMigrationPhases({
    catalog: load.ok ? load.catalog : (undefined as never),
    clusterId: '0123456789abcdef',
    service: 'nats',
    version: '2.9.10-1',
    hosts,
    settings: {},
    mirror: { url: 'https://mirror.example:5000/team', ca_pem: null },
  });
  const op = {
    id: 'op-1',
    cluster_id: '0123456789abcdef',
    service: 'nats',
    action: 'tls.enable',
    state: 'running',
    phase: 0,
    phases,
    plans: phases[0]!.plans.map((p, i) => ({ phase: 0, host_id: p.host_id, command_id: `cmd-0-${i}` })),
    requested_by: 'olga',
    version: '2.9.10-1',
    from_version: null,
    sealed: null,
    backup_set_id: null,
    code: null,
    message: null,
  } as unknown as OperationRecord;
  /** What each issued command signed, by command id. */
  const issued = new Map<string, { host_id: string; args: PlanArgs }>();
  const commandResult = (id: string) => {
    const host = issued.get(id)?.host_id ?? op.plans.find((p) => p.command_id === id)!.host_id;
    // The certificates phase answers each host's CSR; later phases simply succeed.
    const tasks = id.startsWith('cmd-0-') ? [{ id: 'csr', status: 'succeeded', output: { csr_pem: `csr of ${host}` } }] : [];
    return { state: 'succeeded', code: null, result: { tasks } };
  };
  const d = {
    store: { tx: <T>(f: () => T): T => f(), audit: { append: () => undefined } },
    clock: { now: () => new Date('2026-12-06T06:00:00Z') },
    catalog: () => (load.ok ? load.catalog : null),
    events: { emit: () => undefined },
    hosts: { get: (id: string) => hosts.find((h) => h.id === id)! },
    certificates: {
      issue: ({ hostId }: { hostId: string }) => ({ cert_pem: certOf(hostId), ca_pem: CA }),
      inUse: () => [],
      supersede: () => undefined,
    },
    hostCommands: {
      issuePlan: (hostId: string, args: PlanArgs) => {
        const id = `cmd-${issued.size + 1}`;
        issued.set(id, { host_id: hostId, args });
        return { id };
      },
    },
    tables: {
      commands: { get: commandResult },
      hosts: { get: (id: string) => hosts.find((h) => h.id === id) },
      services: {
        operation: () => op,
        get: () => undefined,
        replacePlans: (_id: string, k: number, plans: OperationPhase['plans']) => {
          op.phases[k] = { ...op.phases[k]!, plans };
        },
        setPhase: (_id: string, phase: number, plans: OperationRecord['plans']) => {
          op.phase = phase;
          op.plans = plans;
        },
        finishOperation: (_id: string, state: string) => {
          op.state = state as OperationRecord['state'];
        },
        setState: () => undefined,
      },
    },
  } as unknown as OperationDeps;
  return { op, d, issued };
}

const file = (tasks: PlanTask[], id: string): { content?: string; sha256?: string } =>
  tasks.find((t) => t.id === id) as { content?: string; sha256?: string };

describe('the end of a certificates phase', () => {
  it("writes each host's signed certificate into its own phase of a migration to TLS, not only into the next phase", () => {
    const { op, d, issued } = migration();
    // The certificates phase, then one host's phase after another, then the final checks.
    for (let step = 0; step < 5 && op.state === 'running'; step++) advanceOperation(d, op.id);
    expect(op.state).toBe('succeeded');

    const hostPhases = [...issued.values()].filter((p) => file(p.args.tasks, 'write:tls-cert'));
    expect(hostPhases.map((p) => p.host_id)).toEqual(['id-a', 'id-b', 'id-c']);
    for (const p of hostPhases) {
      expect(file(p.args.tasks, 'write:tls-cert')).toEqual(
        expect.objectContaining({ content: certOf(p.host_id), sha256: sha256Hex(certOf(p.host_id)) }),
      );
      expect(file(p.args.tasks, 'write:tls-ca')).toEqual(expect.objectContaining({ content: CA, sha256: sha256Hex(CA) }));
    }
    // The phases as recorded are the ones signed.
    for (const k of [1, 2, 3]) {
      const [recorded] = op.phases[k]!.plans;
      expect(file(recorded!.args.tasks, 'write:tls-cert').content).toBe(certOf(recorded!.host_id));
    }
  });
});
