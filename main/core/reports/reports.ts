// The acceptance service: runs every check of a cluster now, signs the report with the active key, stores it
// with its audit row in one transaction, and serves it back as the signed JSON or a bilingual HTML page.
import type { Tables } from '../domain-tables';
import { createHash, randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { Registration } from '../clusters/registration';
import { found, NotFoundError } from '../errors';
import type { CoreEvents } from '../events';
import type { Keyring } from '../keys/keyring';
import type { Store } from '../store/store';
import { signDocument } from '../../wire/envelope';
import { wellFormedValue } from '../well-formed';
import { agentConfigLine, agentMtlsLine } from './agent-checks';
import { componentLines, functionalLines, KUBE_READ_TIMEOUT_MS } from '../checks/component-checks';
import { inventoryFreshLine } from './inventory-check';
import { checkMirrorSettings, MIRROR_TIMEOUT_MS, offlineSourceLines } from '../checks/mirror';
import type { MirrorSettings, MirrorSettingsRequest } from '../../contract/reports';
import { renderReportHtml, type ReportLanguage } from './report-html';
import { TEXT } from './line-texts';
import { type ReportBody, type ReportSummary, type SignedReport } from '../../contract/report-types';
import { type ReportLine } from '../../contract/check-types';
import type { Bilingual } from '../../contract/bilingual';
import { statusCounts, verdictOf } from './verdict';
import { serviceLines, type FetchedArtifact } from './service-lines';
import { certificateMember } from './tls-lines';
import { SERVICE_LINE_TEXT } from './service-line-texts';
import type { ServiceView } from '../services/services';
import type { Catalog } from '../catalog/catalog';

import type { Preflight, PreflightRun } from '../preflight/preflight';
import type { Listeners } from '../listeners';

export interface ReportsOptions {
  store: Store;
  tables: Tables<'clusterAccess' | 'clusters' | 'commands' | 'keys' | 'reports'>;
  keyring: Keyring;
  registration: Registration;
  clock: Clock;
  events: CoreEvents;
  /** The manager CA: the only trust anchor of the gateway probe. */
  caPem: string;
  managerVersion: string;
  /** The preflight checks open every acceptance run (spec: "Lancer la recette : vérifications préalables, ..."). */
  preflight?: Preflight;
  /** Where this process's gateway listens (set by whoever starts it); without one the agent.mtls line is BLOCKED. */
  listeners: Listeners;
  kubeTimeoutMs?: number;
  mirrorTimeoutMs?: number;
  /** A hosts cluster's services: their checks run now, and what their installs fetched. */
  services?: ServiceReportSource;
}

export interface ServiceReportSource {
  checkAll(clusterId: string, actor: string): Promise<ServiceView[]>;
  fetched(clusterId: string, service: string): FetchedArtifact[];
  catalog(): Catalog | null;
}

export class Reports {
  constructor(private readonly o: ReportsOptions) {}

  async run(clusterId: string, actor: string): Promise<SignedReport> {
    const { store, tables, clock } = this.o;
    const cluster = found(tables.clusters.get(clusterId), 'cluster', clusterId);
    const desired = (tables.commands.desiredState(clusterId)?.components ?? {}) as Record<string, unknown>;
    const deps = { tables, keyring: this.o.keyring, clock, caPem: this.o.caPem, gateway: this.o.listeners.gateway };

    // The network checks run side by side; each line keeps its own time of execution.
    const [preflight, mtls, components, sources] = await Promise.all([
      this.o.preflight ? this.o.preflight.run(clusterId, { trigger: 'report', actor }) : undefined,
      agentMtlsLine(clusterId, deps),
      componentLines(clusterId, desired, this.o.registration, clock, this.o.kubeTimeoutMs ?? KUBE_READ_TIMEOUT_MS),
      offlineSourceLines(desired, tables.reports.mirror(), clock, this.o.mirrorTimeoutMs ?? MIRROR_TIMEOUT_MS),
    ]);
    const functional = functionalLines(desired, clock);
    const lines: ReportLine[] = [...(preflight ? preflightLines(preflight) : [])];
    if (cluster.kind === 'hosts' && this.o.services) {
      // A hosts cluster has node agents (judged by the preflight's host checks) and services instead of components.
      const since = clock.now().toISOString();
      const services = this.o.services;
      const views = await services.checkAll(clusterId, actor);
      const mirrorUrl = tables.reports.mirror().url;
      lines.push(
        ...serviceLines(views, (s) => services.fetched(clusterId, s), services.catalog(), mirrorUrl, since, clock.now().toISOString()),
      );
      if (views.length === 0) lines.push(noServiceLine(clock));
    } else {
      lines.push(mtls, agentConfigLine(clusterId, deps), inventoryFreshLine(clusterId, tables, clock));
      const names = Object.keys(desired).sort();
      if (names.length === 0) lines.push(noComponentLine(clock, tables.commands.desiredState(clusterId)?.generation ?? 0));
      // Grouped by component, as an auditor reads them: its state, its install source, its functional test.
      names.forEach((_, i) => lines.push(components[i]!, sources[i]!, functional[i]!));
    }

    const signer = this.o.keyring.active();
    const body: ReportBody = {
      type: 'report',
      v: 1,
      key_id: signer.keyId,
      report_id: randomUUID(),
      cluster_id: cluster.id,
      cluster_name: cluster.name,
      tenant: cluster.tenant,
      created_at: clock.now().toISOString(),
      created_by: actor,
      verdict: verdictOf(lines.map((l) => l.status)),
      // Through JSON once so that nothing unsignable (undefined members) reaches the canonicaliser, and with
      // well-formed strings: an inventory stored before bodies were checked may hold a lone surrogate.
      lines: wellFormedValue(JSON.parse(JSON.stringify(lines)) as ReportLine[]),
      manager_version: this.o.managerVersion,
      key_fingerprint: createHash('sha256').update(signer.publicKey).digest('hex'),
    };
    const document = signDocument(body, signer) as unknown as SignedReport;
    const p = document.payload;
    store.tx(() => {
      tables.reports.insert({
        id: p.report_id,
        cluster_id: p.cluster_id,
        cluster_name: p.cluster_name,
        created_at: p.created_at,
        verdict: p.verdict,
        key_id: p.key_id,
        document: JSON.stringify(document),
      });
      store.audit.append({
        actor,
        action: 'report.run',
        cluster_id: p.cluster_id,
        target: p.report_id,
        details: { verdict: p.verdict, key_id: p.key_id, lines: statusCounts(p.lines.map((l) => l.status)) },
      });
    });
    this.o.events.emit('report.created', { id: p.report_id, cluster_id: p.cluster_id, verdict: p.verdict });
    return document;
  }

  list(clusterId?: string, limit?: number): ReportSummary[] {
    return this.o.tables.reports.list({ cluster_id: clusterId, limit });
  }

  /** The signed document exactly as it was signed and stored. */
  get(id: string): SignedReport {
    const text = this.o.tables.reports.document(id);
    if (text === undefined) throw new NotFoundError('report', id);
    return JSON.parse(text) as SignedReport;
  }

  html(id: string, lang: ReportLanguage): string {
    return renderReportHtml(this.get(id), lang);
  }

  mirror(): MirrorSettings {
    return this.o.tables.reports.mirror();
  }

  setMirror(input: MirrorSettingsRequest, actor: string): MirrorSettings {
    const settings = checkMirrorSettings(input);
    this.o.store.tx(() => {
      this.o.tables.reports.setMirror(settings);
      this.o.store.audit.append({
        actor,
        action: 'settings.mirror',
        target: settings.url,
        details: { ca_pem: settings.ca_pem ? 'set' : 'none' },
      });
    });
    return settings;
  }
}

const PREFLIGHT_STATUS = { pass: 'PASS', warn: 'WARN', fail: 'FAIL' } as const;

/** A warning is a check that ran and conforms but needs attention soon: WARN, with its reason; a TLS line its certificate. */
function preflightLines(run: PreflightRun): ReportLine[] {
  return run.checks.map((c) => {
    const evidence: ReportLine['evidence'] = {
      ...c.evidence,
      ...certificateMember(c.evidence, new Date(c.ran_at)),
      at: c.ran_at,
      preflight_run: run.id,
      critical: c.critical,
    };
    if (c.status !== 'pass' && c.reason) evidence.reason = c.reason;
    return { id: `preflight.${c.id}`, title: c.title, status: PREFLIGHT_STATUS[c.status], evidence, ran_at: c.ran_at };
  });
}

/** A cluster with nothing to accept (no component, or no service on hosts) must not pass on its preflight lines alone. */
function nothingToAcceptLine(
  clock: Clock,
  id: string,
  title: ReportLine['title'],
  method: string,
  counts: Record<string, number>,
  reason: Bilingual,
): ReportLine {
  const ran_at = clock.now().toISOString();
  return { id, title, status: 'BLOCKED', evidence: { method, at: ran_at, ...counts, reason }, ran_at };
}

const noComponentLine = (clock: Clock, generation: number): ReportLine =>
  nothingToAcceptLine(
    clock,
    'components.declared',
    TEXT.componentsTitle,
    'read the desired state of the cluster (store)',
    { generation, components: 0 },
    TEXT.noComponent,
  );

const noServiceLine = (clock: Clock): ReportLine =>
  nothingToAcceptLine(
    clock,
    'services.installed',
    SERVICE_LINE_TEXT.servicesTitle,
    'read the services installed on the cluster (store)',
    { services: 0 },
    SERVICE_LINE_TEXT.noService,
  );
