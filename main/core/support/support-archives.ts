// The support archives of a hosts cluster: what goes in (the cluster and its profile, each host's facts, the
// services with their versions and checks, the config files and units the console rendered, the last lines of
// each instance's journal read through its agent, the operations, the open alert and the drift findings), a
// preview of it, and the redacted tar.gz written under the data dir. Every secret the console knows and every
// registered user name go to the redactor.
import type { Tables } from '../domain-tables';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '../catalog/catalog';
import type { Clock } from '../clock';
import type { Drift } from '../drift/drift';
import { NotFoundError } from '../errors';
import type { CoreEvents } from '../events';
import type { HostCommands } from '../hosts/host-commands';
import type { Hosts } from '../hosts/hosts';
import type { Services } from '../services/services';
import type { Store } from '../store/store';
import type { PlanTask } from '../../wire/plan';
import type { SupportArchiveListed, SupportManifestView, SupportPreviewItem } from '../../contract/support';
import { buildSupportArchive, previewArchive, type SupportEntry } from './support-archive';

export const JOURNAL_LINES = 500;
/** How long the agents have to send their journals before the archive is built without them. */
const JOURNALS_WAIT_MS = 30_000;
const ARCHIVE_NAME = /^[0-9a-f-]{36}\.tar\.gz$/;

export interface SupportArchivesDeps {
  store: Store;
  tables: Tables<'accounts' | 'hosts' | 'services'>;
  clock: Clock;
  hosts: Hosts;
  hostCommands: HostCommands;
  services: Services;
  drift: Drift;
  events: CoreEvents;
  catalog: () => Catalog | null;
  dataDir: string;
  /** Every secret value the console holds for this cluster (registration tokens, …), unsealed in memory only. */
  secrets: (clusterId: string) => string[];
}

export interface SupportArchiveView {
  id: string;
  cluster_id: string;
  file: string;
  bytes: number;
  sha256: string;
  created_at: string;
  manifest: SupportManifestView;
}

const json = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;

export class SupportArchives {
  constructor(private readonly d: SupportArchivesDeps) {}

  /** The cluster's archive folder; the cluster is looked up first, so an id from a URL never names a path. */
  private dir(clusterId: string): string {
    const cluster = this.d.hosts.hostsCluster(clusterId);
    return join(this.d.dataDir, 'support', cluster.id);
  }

  private redaction(clusterId: string): { secrets: string[]; userNames: string[] } {
    return {
      secrets: this.d.secrets(clusterId).filter((s) => s.length >= 6),
      userNames: this.d.tables.accounts.listUsers().map((u) => u.name),
    };
  }

  /** What the archive will hold, its file names already redacted (journals are read when it is built). */
  preview(clusterId: string): SupportPreviewItem[] {
    return previewArchive(this.entries(clusterId, new Map()), this.redaction(clusterId));
  }

  /** Reads the journals through the agents, then writes the redacted archive. */
  async create(clusterId: string, actor: string): Promise<SupportArchiveView> {
    const dir = this.dir(clusterId);
    const journals = await this.journals(clusterId, actor);
    const id = randomUUID();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const out = join(dir, `${id}.tar.gz`);
    const result = await buildSupportArchive(this.entries(clusterId, journals), {
      out,
      redaction: this.redaction(clusterId),
      now: this.d.clock.now(),
    });
    this.d.store.tx(() =>
      this.d.store.audit.append({
        actor,
        action: 'support.archive',
        cluster_id: clusterId,
        target: id,
        details: { sha256: result.sha256, bytes: result.bytes, redacted: result.manifest.redacted, files: result.manifest.files.length },
      }),
    );
    this.d.events.emit('support.changed', { cluster_id: clusterId, id });
    return {
      id,
      cluster_id: clusterId,
      file: out,
      bytes: result.bytes,
      sha256: result.sha256,
      created_at: result.manifest.created_at,
      manifest: result.manifest,
    };
  }

  list(clusterId: string): SupportArchiveListed[] {
    const dir = this.dir(clusterId);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => ARCHIVE_NAME.test(f))
      .map((f) => {
        const st = statSync(join(dir, f));
        return { id: f.replace(/\.tar\.gz$/, ''), bytes: st.size, created_at: st.mtime.toISOString() };
      })
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
  }

  /** The archive's bytes, exactly as written. */
  read(clusterId: string, id: string): Buffer {
    const dir = this.dir(clusterId);
    if (!ARCHIVE_NAME.test(`${id}.tar.gz`)) throw new NotFoundError('support archive', id);
    try {
      return readFileSync(join(dir, `${id}.tar.gz`));
    } catch {
      throw new NotFoundError('support archive', id);
    }
  }

  /** The last lines of every instance's journal, asked of each host's agent (30 s at most; a silent one is noted). */
  private async journals(clusterId: string, actor: string): Promise<Map<string, string>> {
    const catalog = this.d.catalog();
    const asks: { hostId: string; unit: string; key: string }[] = [];
    for (const s of this.d.tables.services.list(clusterId)) {
      const unit = catalog?.service(s.service)?.unit.name;
      if (!unit) continue;
      for (const hostId of s.hosts) {
        const host = this.d.tables.hosts.get(hostId);
        if (host) asks.push({ hostId, unit, key: `${host.name}/${unit}` });
      }
    }
    const reads = await this.d.hostCommands.readJournals(asks, JOURNAL_LINES, actor, JOURNALS_WAIT_MS);
    return new Map(
      reads.map((r, i) => [
        asks[i]!.key,
        r.state === 'succeeded'
          ? r.text
          : r.state === 'failed'
            ? `(no journal: the agent could not read it${r.code ? `: ${r.code}` : ''})\n`
            : `(no journal: the agent did not answer within ${JOURNALS_WAIT_MS / 1000} s)\n`,
      ]),
    );
  }

  private entries(clusterId: string, journals: Map<string, string>): SupportEntry[] {
    const { tables } = this.d;
    const cluster = this.d.hosts.hostsCluster(clusterId);
    const hosts = tables.hosts.list(clusterId);
    const names = new Map(hosts.map((h) => [h.id, h.name]));
    const services = this.d.services.list(clusterId);
    const drift = this.d.drift.view(clusterId);
    const entries: SupportEntry[] = [
      {
        path: 'cluster.json',
        kind: 'data',
        content: json({
          id: cluster.id,
          name: cluster.name,
          kind: cluster.kind,
          tenant: cluster.tenant,
          profile: cluster.profile,
          drift_mode: drift.mode,
        }),
      },
      ...hosts.map((h): SupportEntry => ({
        path: `hosts/${h.name}/facts.json`,
        kind: 'data',
        content: json({
          name: h.name,
          address: h.address,
          agent_version: h.agent_version,
          last_seen: h.last_seen,
          facts: h.facts,
          facts_at: h.facts_at,
        }),
      })),
      {
        path: 'services.json',
        kind: 'data',
        content: json(services.map(({ operation: _operation, ...s }) => s)),
      },
      {
        path: 'operations.json',
        kind: 'data',
        content: json(this.d.services.operations(clusterId, null, 200).map(({ phases: _p, ...o }) => o)),
      },
      { path: 'alerts.json', kind: 'data', content: json(drift.alert ? [drift.alert] : []) },
      { path: 'drift-findings.json', kind: 'data', content: json(drift.findings) },
    ];
    // The config files and units as the console last rendered them for each host.
    for (const s of services) {
      const op = tables.services
        .operations(clusterId, s.service, 200)
        .find((o) => o.state === 'succeeded' && ['install', 'configuration', 'realign'].includes(o.action));
      // The phase named for the action writes the files (a certificates phase may come first, with TLS).
      for (const plan of op?.phases.find((p) => p.name === op.action)?.plans ?? [])
        for (const t of plan.args.tasks as PlanTask[]) {
          const host = names.get(plan.host_id) ?? plan.host_id;
          if (t.kind === 'file.write' && t.content !== undefined)
            entries.push({ path: `config/${host}${t.path}`, kind: 'config', content: t.content });
          if (t.kind === 'unit.write')
            entries.push({ path: `config/${host}/etc/systemd/system/${t.unit}`, kind: 'config', content: t.content });
        }
      for (const h of s.hosts) {
        const unit = this.d.catalog()?.service(s.service)?.unit.name;
        const key = `${h.name}/${unit}`;
        entries.push({
          path: `journal/${h.name}/${unit}.log`,
          kind: 'log',
          content: journals.get(key) ?? '(read when the archive is built)\n',
        });
      }
    }
    return entries;
  }
}
