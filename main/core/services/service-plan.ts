// Turns a catalog service, a version and a set of hosts into the phases of signed plans an operation runs: on
// every host at once (so the members of a cluster such as etcd can find each other while they start), then the
// readiness and the functional test from the first host. Pure: the same inputs give the same plans.
import { CoreError } from '../errors';
import type { Catalog, ResolvedArtifact } from '../catalog/catalog';
import type { CatalogCheck, CatalogDescriptor, CatalogMigration, CatalogVersion } from '../catalog/catalog-schema';
import {
  HOST_LAYOUT,
  renderArgv,
  renderCheckParams,
  renderInstance,
  renderTemplate,
  templateContext,
  type TemplateContext,
} from '../catalog/catalog-templates';
import type { OperationPhase, ServiceSettings } from './services-tables';
import { MAX_WATCH_INTERVAL_S, MIN_WATCH_INTERVAL_S, type PlanArgs, type PlanTask } from '../../wire/plan';
import { CHECK_PARAM_FIELDS, isCheckKind, type CheckRole } from '../../wire/service-checks';
import { certificatesPhase, certificateWrites, tlsFiles, type TlsChoice } from './service-tls';

/**
 * realign: the install's tasks again (binaries, files, unit) over what drifted, gated as a configuration.
 * backup and restore: their phases come from backup-plan.ts.
 */
import type { ServiceAction, ServiceOperationAction as OperationAction } from '../../contract/services';
export type { ServiceAction, OperationAction };

export interface PlanHost {
  id: string;
  name: string;
  address: string;
  architecture: string;
}

export interface PlanInput {
  catalog: Catalog;
  clusterId: string;
  service: string;
  version: string;
  hosts: PlanHost[];
  settings: ServiceSettings;
  mirror: { url: string; ca_pem: string | null } | null;
  /** For backup and restore steps: the backup's folder on the host. */
  backup_dir?: string;
  /** The service serves TLS (absent: plaintext); `certificates`: the operation brings them first (service-tls.ts). */
  tls?: TlsChoice;
}

export interface Instance {
  host: PlanHost;
  ctx: TemplateContext;
}

/**
 * The mirror URL of an artifact's blob (a path in the mirror URL prefixes every repository, as the OCI client
 * reads it): the node agent downloads it and re-hashes it against the digest.
 */
export function blobUrl(mirrorUrl: string, artifact: ResolvedArtifact, digest: string): string {
  const base = new URL(mirrorUrl);
  const prefix = base.pathname.replace(/^\/+|\/+$/g, '');
  return `${base.origin}/v2/${prefix ? `${prefix}/` : ''}${artifact.repository}/blobs/${digest}`;
}

export function resolve(input: PlanInput): { desc: CatalogDescriptor; version: CatalogVersion; instances: Instance[] } {
  const desc = input.catalog.service(input.service);
  if (!desc) throw new CoreError('not_found', `the catalog has no service ${input.service}`);
  const version = input.catalog.version(input.service, input.version);
  if (!version) throw new CoreError('not_found', `the catalog has no version ${input.version} of ${input.service}`);
  if (input.hosts.length === 0) throw new CoreError('invalid_field', 'a service runs on at least one host', { field: 'hosts' });
  const members = input.hosts.map((h) => ({ name: h.name, address: h.address }));
  const instances = input.hosts.map((host) => ({
    host,
    ctx: templateContext(desc, version, {
      instance: { name: host.name, address: host.address },
      settings: input.settings,
      members,
      cluster: { name: `navin-${input.service}`, token: `navin-${input.service}-${input.clusterId.slice(0, 8)}` },
      tls: { enabled: input.tls?.tls === true && desc.supports_tls },
      ...(input.backup_dir ? { backup_dir: input.backup_dir } : {}),
    }),
  }));
  return { desc, version, instances };
}

/** A check of the catalog for one instance; a check on the host's own service is pointed at its address. */
export function checkTask(id: string, role: CheckRole, check: CatalogCheck, ctx: TemplateContext): PlanTask {
  const params: Record<string, unknown> = renderCheckParams(check.params, ctx);
  if (isCheckKind(check.kind) && 'host' in CHECK_PARAM_FIELDS[check.kind] && params.host === undefined) params.host = ctx.instance.address;
  if (check.timeout_s !== undefined && params.timeout_ms === undefined) params.timeout_ms = Math.min(check.timeout_s * 1000, 60_000);
  return { id, kind: 'check', title: `${role} (${check.kind})`, check: { kind: check.kind, params } };
}

function fetchTasks(input: PlanInput, artifacts: ResolvedArtifact[], inst: Instance): PlanTask[] {
  if (artifacts.length === 0) return [];
  if (!input.mirror)
    throw new CoreError('mirror_not_configured', 'no mirror is configured: set it in Settings before installing a service');
  const fetches = artifacts.map((a) => {
    const pin = a.platforms.find((p) => p.architecture === inst.host.architecture);
    if (!pin || !pin.available)
      throw new CoreError('invalid_field', `${a.key} has no ${inst.host.architecture} build for host ${inst.host.name}`, {
        field: 'hosts',
      });
    return {
      id: `fetch:${a.name}`,
      kind: 'artifact.fetch',
      title: `fetch ${a.key} from the mirror`,
      url: blobUrl(input.mirror!.url, a, pin.digest),
      digest: pin.digest,
      size: pin.size,
      path: HOST_LAYOUT.bin(input.service, input.version, a.name),
      mode: `0${a.mode.toString(8)}`,
      ...(input.mirror!.ca_pem ? { ca_pem: input.mirror!.ca_pem } : {}),
    } satisfies PlanTask;
  });
  return [...fetches, ...packagesTask(input, artifacts, inst)];
}

/** The fetched .deb artifacts installed offline in one dpkg run (a database is its Debian packages). */
function packagesTask(input: PlanInput, artifacts: ResolvedArtifact[], inst: Instance): PlanTask[] {
  const packages = artifacts.flatMap((a) => {
    const pin = a.platforms.find((p) => p.architecture === inst.host.architecture);
    if (!pin?.available || pin.source.debian.path !== undefined) return [];
    const { package: name, version } = pin.source.debian;
    return [{ name, version, path: HOST_LAYOUT.bin(input.service, input.version, a.name) }];
  });
  if (packages.length === 0) return [];
  const replaced = input.catalog.service(input.service)?.replaces_units ?? [];
  return [
    {
      id: 'packages',
      kind: 'packages.install',
      title: `install ${packages.length} Debian packages of ${input.service} ${input.version} offline`,
      packages,
      ...(replaced.length > 0 ? { disable_units: replaced } : {}),
    },
  ];
}

export function writeTasks(desc: CatalogDescriptor, inst: Instance): PlanTask[] {
  const { files, unit } = renderInstance(desc, inst.ctx);
  return [
    ...files.map((f): PlanTask => ({
      id: `write:${f.name}`,
      kind: 'file.write',
      title: `write ${f.path}`,
      path: f.path,
      content: f.content,
      sha256: f.sha256,
      mode: f.mode,
    })),
    { id: 'write:unit', kind: 'unit.write', title: `write ${unit.name}`, unit: unit.name, content: unit.content, sha256: unit.sha256 },
    { id: 'daemon-reload', kind: 'systemd.daemon_reload', title: 'systemctl daemon-reload' },
  ];
}

/** How long a check right after a start may wait for the service to come up (etcd members wait for a quorum). */
export const STARTUP_GRACE_S = 60;
export const afterStart = (task: PlanTask): PlanTask => ({ ...task, retry_for_s: STARTUP_GRACE_S }) as PlanTask;

export const finalChecks = (desc: CatalogDescriptor, first: Instance, started: boolean): OperationPhase => ({
  name: 'readiness and functional test',
  plans: [
    {
      host_id: first.host.id,
      args: {
        title: `${desc.service}: readiness and functional test`,
        tasks: [
          // After a start, readiness may wait for the members to agree; the functional test runs once.
          started
            ? afterStart(checkTask('readiness', 'readiness', desc.checks.readiness, first.ctx))
            : checkTask('readiness', 'readiness', desc.checks.readiness, first.ctx),
          checkTask('functional', 'functional', desc.checks.functional, first.ctx),
        ],
      },
    },
  ],
});

const onEveryHost = (name: string, instances: Instance[], title: string, tasks: (inst: Instance) => PlanTask[]): OperationPhase => ({
  name,
  plans: instances.map((inst) => ({ host_id: inst.host.id, args: { title: `${title} on ${inst.host.name}`, tasks: tasks(inst) } })),
});

export const livenessTask = (desc: CatalogDescriptor, inst: Instance): PlanTask =>
  checkTask('liveness', 'liveness', desc.checks.liveness, inst.ctx);
/** From then on the agent runs the liveness check itself, at the catalog's interval, and reports it. */
export function watchTask(desc: CatalogDescriptor, inst: Instance): PlanTask {
  const c = checkTask('watch', 'liveness', desc.checks.liveness, inst.ctx) as Extract<PlanTask, { kind: 'check' }>;
  const interval_s = Math.min(Math.max(desc.checks.liveness.interval_s ?? 15, MIN_WATCH_INTERVAL_S), MAX_WATCH_INTERVAL_S);
  const unit = desc.unit.name;
  const scrape = desc.host_metrics && {
    url: renderTemplate(desc.host_metrics.url, inst.ctx).trim(),
    ...(inst.ctx.tls.enabled ? { ca_file: inst.ctx.tls.ca_file } : {}),
  };
  return {
    id: 'watch',
    kind: 'liveness.watch',
    title: `watch the liveness of ${unit} every ${interval_s} s`,
    unit,
    check: c.check,
    interval_s,
    ...(scrape ? { scrape } : {}),
  };
}

/** One host moved to the version of `input`: stop, files and unit, start, health (and on the canary the functional test). */
function moveTasks(
  input: PlanInput,
  desc: CatalogDescriptor,
  inst: Instance,
  opts: { fetch: boolean; functional: boolean; migrations?: CatalogMigration[] },
): PlanTask[] {
  const unit = desc.unit.name;
  return [
    ...(opts.fetch ? fetchTasks(input, input.catalog.artifacts(input.service, input.version), inst) : []),
    { id: 'stop', kind: 'systemd.stop', title: `systemctl stop ${unit}`, unit },
    // The data migrations of the new version, run with the service stopped, before its files are written.
    ...(opts.migrations ?? []).flatMap((m) =>
      m.run.map((argv, i): PlanTask => ({
        id: `migrate:${m.name}${m.run.length > 1 ? `:${i + 1}` : ''}`,
        kind: 'command.run',
        title: `migration ${m.name}${m.irreversible ? ' (irreversible)' : ''}: ${argv[0]}`,
        argv: renderArgv(argv, inst.ctx),
      })),
    ),
    ...writeTasks(desc, inst),
    { id: 'enable', kind: 'systemd.enable', title: `systemctl enable ${unit}`, unit },
    { id: 'start', kind: 'systemd.start', title: `systemctl start ${unit}`, unit },
    afterStart(livenessTask(desc, inst)),
    watchTask(desc, inst),
    ...(opts.functional ? [checkTask('functional', 'functional', desc.checks.functional, inst.ctx)] : []),
  ];
}

/**
 * An upgrade from `from` to input.version: the canary (the first host) alone first, its functional test included,
 * then the other hosts one by one, then readiness and the functional test. `rollback` holds, per host, the plan
 * that brings back `from` and its files (the binaries of both versions live side by side): the caller signs them
 * before anything runs. A rollback (to input.version = the previous one) is the same walk without the fetch.
 */
export function rollingPhases(
  input: PlanInput,
  from: string | null,
): { phases: OperationPhase[]; rollback: { host_id: string; args: PlanArgs }[] } {
  const { desc, instances } = resolve(input);
  const fetch = from !== null;
  const migrations = from !== null ? input.catalog.upgrade(input.service, from, input.version).migrations : [];
  const phases = instances.map((inst, i): OperationPhase => ({
    name: i === 0 ? 'canary' : `host ${i + 1} of ${instances.length}`,
    plans: [
      {
        host_id: inst.host.id,
        args: {
          title: `${desc.service} ${input.version} on ${inst.host.name}${i === 0 ? ' (canary)' : ''}`,
          tasks: moveTasks(input, desc, inst, { fetch, functional: i === 0, migrations }),
        },
      },
    ],
  }));
  phases.push(finalChecks(desc, instances[0]!, true));
  if (from === null) return { phases, rollback: [] };
  const previous = resolve({ ...input, version: from });
  const rollback = previous.instances.map((inst) => ({
    host_id: inst.host.id,
    args: {
      title: `roll ${desc.service} back to ${from} on ${inst.host.name}`,
      tasks: moveTasks({ ...input, version: from }, previous.desc, inst, { fetch: false, functional: false }),
    },
  }));
  return { phases, rollback };
}

export function operationPhases(action: OperationAction, input: PlanInput): OperationPhase[] {
  const { desc, instances } = resolve(input);
  const unit = desc.unit.name;
  const liveness = (inst: Instance): PlanTask => livenessTask(desc, inst);
  const watch = (inst: Instance): PlanTask => watchTask(desc, inst);
  const label = `${desc.service} ${input.version}`;
  switch (action) {
    case 'install':
    case 'realign':
    case 'configuration': {
      const artifacts = action === 'configuration' ? [] : input.catalog.artifacts(input.service, input.version);
      // With TLS, each host makes its key and a CSR first; the certificates signed in between are written here.
      const certificates = input.tls?.certificates === true && instances[0]!.ctx.tls.enabled;
      return [
        ...(certificates ? [certificatesPhase(desc, instances, label)] : []),
        onEveryHost(action, instances, `${action} ${label}`, (inst) => [
          ...fetchTasks(input, artifacts, inst),
          ...(certificates ? certificateWrites(inst) : []),
          ...writeTasks(desc, inst),
          { id: 'enable', kind: 'systemd.enable', title: `systemctl enable ${unit}`, unit },
          // restart, not start: a configuration written over a running instance takes effect.
          { id: 'restart', kind: 'systemd.restart', title: `systemctl restart ${unit}`, unit },
          afterStart(liveness(inst)),
          watch(inst),
        ]),
        finalChecks(desc, instances[0]!, true),
      ];
    }
    case 'start':
    case 'restart':
      return [
        onEveryHost(action, instances, `${action} ${label}`, (inst) => [
          { id: action, kind: action === 'start' ? 'systemd.start' : 'systemd.restart', title: `systemctl ${action} ${unit}`, unit },
          afterStart(liveness(inst)),
          watch(inst),
        ]),
        finalChecks(desc, instances[0]!, true),
      ];
    case 'stop':
      return [
        onEveryHost('stop', instances, `stop ${label}`, () => [
          { id: 'stop', kind: 'systemd.stop', title: `systemctl stop ${unit}`, unit },
        ]),
      ];
    case 'uninstall':
      // The data stays where it is (an uninstall is not a wipe); binaries, config files and the unit go.
      return [
        onEveryHost('uninstall', instances, `uninstall ${label}`, (inst) => [
          { id: 'stop', kind: 'systemd.stop', title: `systemctl stop ${unit}`, unit },
          { id: 'unwatch', kind: 'liveness.unwatch', title: `stop watching the liveness of ${unit}`, unit },
          { id: 'disable', kind: 'systemd.disable', title: `systemctl disable ${unit}`, unit },
          { id: 'remove:unit', kind: 'unit.remove', title: `remove ${unit}`, unit },
          { id: 'daemon-reload', kind: 'systemd.daemon_reload', title: 'systemctl daemon-reload' },
          ...renderInstance(desc, inst.ctx).files.map((f): PlanTask => ({
            id: `remove:${f.name}`,
            kind: 'file.remove',
            title: `remove ${f.path}`,
            path: f.path,
          })),
          ...tlsFiles(inst).map((f): PlanTask => ({
            id: `remove:${f.name}`,
            kind: 'file.remove',
            title: `remove ${f.path}`,
            path: f.path,
          })),
          ...input.catalog.artifacts(input.service, input.version).map((a): PlanTask => ({
            id: `remove:${a.name}`,
            kind: 'file.remove',
            title: `remove ${a.name}`,
            path: HOST_LAYOUT.bin(input.service, input.version, a.name),
          })),
        ]),
      ];
    case 'upgrade':
    case 'rollback':
      // Host by host, the rollback plans sealed in advance: see rollingPhases().
      return rollingPhases(input, null).phases;
    case 'backup':
    case 'restore':
      throw new CoreError('internal', `the phases of a ${action} come from its backup set (backup-plan.ts)`);
    case 'certificates.renew':
      throw new CoreError('internal', 'the phases of a certificates renewal come from renewal-plan.ts');
    case 'tls.enable':
      throw new CoreError('internal', 'the phases of a migration to TLS come from tls-migration.ts');
    case 'check':
      return [
        onEveryHost('liveness', instances, `liveness of ${label}`, (inst) => [liveness(inst)]),
        finalChecks(desc, instances[0]!, false),
      ];
    case 'functional_test':
      return [
        {
          name: 'functional test',
          plans: [
            {
              host_id: instances[0]!.host.id,
              args: {
                title: `${desc.service}: functional test`,
                tasks: [checkTask('functional', 'functional', desc.checks.functional, instances[0]!.ctx)],
              },
            },
          ],
        },
      ];
  }
}
