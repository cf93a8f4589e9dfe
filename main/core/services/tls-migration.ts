// Moving an installed plaintext service to TLS in place (issue 34), host by host so it keeps its quorum and its
// data: the keys and CSRs on every host first, then each host's certificates, TLS configuration and restart in turn.
import { CoreError } from '../errors';
import { sha256Hex } from '../catalog/catalog-templates';
import type { CatalogDescriptor } from '../catalog/catalog-schema';
import type { PlanResult, PlanTask } from '../../wire/plan';
import type { OperationPhase, OperationRecord } from './services-tables';
import {
  afterStart,
  checkTask,
  finalChecks,
  livenessTask,
  resolve,
  watchTask,
  writeTasks,
  type Instance,
  type PlanInput,
} from './service-plan';
import { certificatesPhase, certificateWrites } from './service-tls';

export const TLS_ENABLE = 'tls.enable';
/** etcd's phase that reads the member ids (its readiness check over TLS) the peer URL updates after it need. */
export const MEMBER_IDS_PHASE = 'etcd member ids';
export const MEMBER_UPDATE_TASK = 'member-update';
const ID_PREFIX = '<member id of ';
const memberIdOf = (name: string): string => `${ID_PREFIX}${name}>`;

/** The config lines of etcd that name peer URLs: they stay http until every member can dial https with its certificate. */
const ETCD_PEER_LINES = /^(listen-peer-urls|initial-advertise-peer-urls|initial-cluster):/;

/**
 * Refuses what a rolling move cannot do yet: NATS servers require TLS on their routes once moved, so the first
 * server moved of a cluster of several is cut off from the others (JetStream loses its meta leader). Until routes
 * move in a walk of their own, such a cluster moves to TLS by reinstalling it; a single server moves in place.
 */
export function refuseTlsMigration(service: string, hostCount: number): void {
  if (service === 'nats' && hostCount > 1)
    throw new CoreError(
      'tls_unsupported',
      `a NATS cluster of ${hostCount} servers cannot move its routes to TLS one server at a time yet: reinstall it with TLS, or move a single server in place`,
      { hosts: hostCount },
    );
}

/**
 * The phases of a migration to TLS: the certificates phase, then one phase per host, then readiness and the
 * functional test. etcd walks its members twice, because its peer URLs live in the member list its data keeps:
 * first each member serves its clients over TLS and gets a peer certificate while its peers still talk http (it
 * can then dial a peer over https with its certificate); once every member can, each in turn listens for peers
 * over https and its peer URL in the member list is moved to https (`etcdctl member update`), the member ids read
 * by a readiness check in between. Each member restarts alone, so two of three always hold the quorum.
 */
export function tlsMigrationPhases(input: PlanInput): OperationPhase[] {
  const { desc, instances } = resolve({ ...input, tls: { tls: true, certificates: true } });
  if (!instances[0]!.ctx.tls.enabled) throw new CoreError('tls_unsupported', `${desc.service} does not support TLS`);
  const label = `${desc.service} ${input.version}`;
  const walk = desc.service === 'etcd' ? etcdWalks(desc, instances) : oneWalk(desc, instances);
  return [certificatesPhase(desc, instances, label), ...walk, finalChecks(desc, instances[0]!, true)];
}

const hostPhase = (name: string, inst: Instance, title: string, tasks: PlanTask[]): OperationPhase => ({
  name,
  plans: [{ host_id: inst.host.id, args: { title: `${title} on ${inst.host.name}`, tasks } }],
});

/** Files written, the service restarted on them, its liveness awaited (over TLS), then watched over TLS. */
function restartOn(desc: CatalogDescriptor, inst: Instance, files: PlanTask[], after: PlanTask[] = []): PlanTask[] {
  const unit = desc.unit.name;
  return [
    ...files,
    { id: 'restart', kind: 'systemd.restart', title: `systemctl restart ${unit}`, unit },
    afterStart(livenessTask(desc, inst)),
    ...after,
    watchTask(desc, inst),
  ];
}

/** A service whose TLS is its own business on each host (NATS, the node exporter): one host at a time. */
function oneWalk(desc: CatalogDescriptor, instances: Instance[]): OperationPhase[] {
  return instances.map((inst, i) =>
    hostPhase(`TLS on host ${i + 1} of ${instances.length}`, inst, `${desc.service} to TLS`, [
      ...certificateWrites(inst),
      ...restartOn(desc, inst, writeTasks(desc, inst)),
    ]),
  );
}

function etcdWalks(desc: CatalogDescriptor, instances: Instance[]): OperationPhase[] {
  const n = instances.length;
  const first = instances.map((inst, i) =>
    hostPhase(`client TLS on member ${i + 1} of ${n}`, inst, 'etcd clients over TLS, peers over http', [
      ...certificateWrites(inst),
      ...restartOn(desc, inst, withPeersInClear(writeTasks(desc, inst))),
    ]),
  );
  const ids: OperationPhase = {
    name: MEMBER_IDS_PHASE,
    plans: [
      {
        host_id: instances[0]!.host.id,
        args: {
          title: 'etcd: the members, over TLS',
          tasks: [afterStart(checkTask('readiness', 'readiness', desc.checks.readiness, instances[0]!.ctx))],
        },
      },
    ],
  };
  const second = instances.map((inst, i) =>
    hostPhase(`peer TLS on member ${i + 1} of ${n}`, inst, 'etcd peers over TLS', [
      ...restartOn(desc, inst, writeTasks(desc, inst), [memberUpdate(inst, instances), afterStart(healthAgain(desc, inst))]),
    ]),
  );
  return [...first, ids, ...second];
}

/** The etcd configuration with TLS, but its peer URLs left http: what a member runs between the two walks. */
function withPeersInClear(tasks: PlanTask[]): PlanTask[] {
  return tasks.map((t) => {
    if (t.kind !== 'file.write' || t.id !== 'write:config' || t.content === undefined) return t;
    let changed = 0;
    const content = t.content
      .split('\n')
      .map((line) => {
        if (!ETCD_PEER_LINES.test(line)) return line;
        changed++;
        return line.replaceAll('https://', 'http://');
      })
      .join('\n');
    // The catalog's etcd configuration names its peer URLs on three lines; another shape is not one this walk knows.
    if (changed !== 3) throw new CoreError('internal', `the etcd configuration has ${changed} peer URL lines, not the 3 expected`);
    return { ...t, content, sha256: sha256Hex(content) };
  });
}

/** The member's health once its peer URL moved: its own task id, the recorded liveness being the one after the restart. */
const healthAgain = (desc: CatalogDescriptor, inst: Instance): PlanTask => ({ ...livenessTask(desc, inst), id: 'liveness:peers-moved' });

/** `etcdctl member update` of this member's peer URL to https, over TLS with the member's certificate. */
function memberUpdate(inst: Instance, instances: Instance[]): PlanTask {
  const { ctx } = inst;
  const endpoints = instances.map((i) => `https://${i.ctx.instance.address}:${i.ctx.ports.client}`).join(',');
  return {
    id: MEMBER_UPDATE_TASK,
    kind: 'command.run',
    title: `etcdctl member update ${inst.host.name}: peer URL over https`,
    argv: [
      ctx.bin.etcdctl!,
      `--endpoints=${endpoints}`,
      `--cacert=${ctx.tls.ca_file}`,
      `--cert=${ctx.tls.cert_file}`,
      `--key=${ctx.tls.key_file}`,
      '--command-timeout=30s',
      'member',
      'update',
      memberIdOf(ctx.instance.name),
      `--peer-urls=https://${ctx.instance.address}:${ctx.ports.peer}`,
    ],
    timeout_s: 60,
  };
}

/**
 * Once the member-ids phase ended: each member's id, as its readiness check listed them, written into the member
 * updates of the phases after it (recorded as they will be signed). A member the check did not list fails it.
 */
export function fillMemberIds(
  d: { tables: { services: { replacePlans(id: string, phase: number, plans: OperationPhase['plans']): void } } },
  op: OperationRecord,
  ended: { host_id: string; command?: { result: unknown } | undefined }[],
): { host: string; code: string; task: string | null; message: string } | null {
  const task = ((ended[0]?.command?.result as Partial<PlanResult> | null)?.tasks ?? []).find((t) => t.id === 'readiness');
  const members = ((task?.output as { check?: { evidence?: { members?: unknown } } } | undefined)?.check?.evidence?.members ?? []) as {
    id?: unknown;
    name?: unknown;
  }[];
  const ids = new Map(members.map((m) => [memberIdOf(String(m.name)), String(m.id)]));
  let missing: string | null = null;
  const filled = op.phases.map((phase, k) =>
    k <= op.phase
      ? null
      : phase.plans.map((p) => ({
          ...p,
          args: {
            ...p.args,
            tasks: p.args.tasks.map((t): PlanTask => {
              if (t.kind !== 'command.run' || t.id !== MEMBER_UPDATE_TASK) return t;
              const argv = t.argv.map((a) => {
                if (!a.startsWith(ID_PREFIX)) return a;
                if (!ids.has(a)) missing ??= a.slice(ID_PREFIX.length, -1);
                return ids.get(a) ?? a;
              });
              return { ...t, argv };
            }),
          },
        })),
  );
  if (missing !== null)
    return {
      host: missing,
      code: 'plan_failed',
      task: 'readiness',
      message: `etcd's member list has no member ${missing}: its peer URL cannot be moved to https`,
    };
  filled.forEach((plans, k) => {
    if (!plans) return;
    d.tables.services.replacePlans(op.id, k, plans);
    op.phases[k] = { ...op.phases[k]!, plans };
  });
  return null;
}
