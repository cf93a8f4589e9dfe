// What every profile rule shares: the state it judges (desired and observed components, read once), a cache of
// TLS handshakes so an endpoint is probed once per evaluation, and the shape of a rule's result.
import type { Tables } from '../domain-tables';
import type { Accounts } from '../accounts/accounts';
import type { Clock } from '../clock';
import type { Registration } from '../clusters/registration';
import { catalogEntry } from '../commands/component-catalog';
import type { CatalogLoad } from '../catalog/catalog-loader';
import type { Listeners } from '../listeners';
import type { CheckResult, CheckStatus } from '../../contract/check-types';
import { check } from '../checks/check';
import type { Bilingual } from '../../contract/bilingual';
import type { ClusterRecord } from '../clusters/clusters-table';
import type { SyslogForwarderStatus } from '../../contract/settings';
import { probeTlsEndpoint, type TlsEndpointResult } from '../checks/tls-endpoint';
import type { HostTlsObserve } from './host-tls-observer';
import type { RuleId } from './profile-rules';
import { RULE_TITLES } from './profile-texts';

export interface RuleDeps {
  tables: Tables<'clusterAccess' | 'clusters' | 'commands' | 'reports' | 'settings'>;
  clock: Clock;
  registration: Registration;
  accounts: Accounts;
  listeners: Listeners;
  /** The manager CA: trust anchor of the console and gateway listeners. */
  caPem: string;
  mode: 'desktop' | 'headless';
  timeoutMs?: number;
  /** The audit forwarder's state, when this process runs one: a target that accepts a probe but not the log fails. */
  syslogStatus?: () => SyslogForwarderStatus;
  /** The service catalog as the manager loaded it (default: the shipped descriptors). */
  catalog?: CatalogLoad;
  /** The node agents' handshakes with a hosts cluster's service endpoints, given once the host commands exist. */
  hostTls?: HostTlsObserve;
}

export type Spec = {
  component?: unknown;
  artifacts?: { image?: unknown }[];
  endpoints?: { name?: unknown; url?: unknown }[];
  sandbox?: unknown;
};

/** What one evaluation reads once and every rule shares (a probe of an endpoint runs once). */
export interface RuleContext {
  cluster: ClusterRecord;
  desired: Record<string, Spec>;
  observed: Record<string, Spec>;
  deps: RuleDeps;
  tlsProbe(host: string, port: number, caPems: string[], serverName?: string): Promise<TlsEndpointResult>;
}

/** With a target, the rules judge the state as it will be once that component is written. */
export function ruleContext(cluster: ClusterRecord, deps: RuleDeps, target?: { name: string; spec: unknown }): RuleContext {
  const desired = { ...((deps.tables.commands.desiredState(cluster.id)?.components ?? {}) as Record<string, Spec>) };
  if (target) desired[target.name] = target.spec as Spec;
  const snapshot = deps.tables.clusterAccess.latestAgentSnapshot(cluster.id);
  const raw = ((snapshot?.data as { observed_components?: Record<string, { spec?: Spec }> | null } | undefined)?.observed_components ??
    {}) as Record<string, { spec?: Spec }>;
  const observed = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v?.spec ?? {}]));
  const cache = new Map<string, Promise<TlsEndpointResult>>();
  return {
    cluster,
    desired,
    observed,
    deps,
    tlsProbe(host, port, caPems, serverName) {
      const key = JSON.stringify([host, port, caPems, serverName]);
      let p = cache.get(key);
      if (!p) {
        p = probeTlsEndpoint({ host, port, serverName, caPems, now: deps.clock.now(), timeoutMs: deps.timeoutMs });
        cache.set(key, p);
      }
      return p;
    },
  };
}

/** A rule's result is a check like any other, under the id `profile.<rule>`. */
export const result = (
  id: RuleId,
  status: CheckStatus,
  evidence: CheckResult['evidence'],
  reason: Bilingual | null,
  at: string,
): CheckResult => check(`profile.${id}`, RULE_TITLES[id], status, evidence, reason, at);

/** A rule whose subject is not configured at all fails without probing anything; the evidence names what is unset. */
export const notSet = (id: RuleId, method: string, field: string, reason: Bilingual, at: string): CheckResult =>
  result(id, 'fail', { method, [field]: null }, reason, at);

export const tlsOk = (r: TlsEndpointResult): boolean => r.verdict === 'ok' || r.verdict === 'expiring';

/** A TLS handshake with the host of an https:// URL (443 by default), trusting its CA when one is set. */
export function httpsProbe(ctx: RuleContext, url: string, caPem: string | null, serverName?: string | null): Promise<TlsEndpointResult> {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  return ctx.tlsProbe(host, Number(u.port || 443), caPem ? [caPem] : [], serverName ?? host);
}

export interface BoundEndpoint {
  component: string;
  name: string;
  url: string;
}

export function endpointsOf(ctx: RuleContext, onlyTlsCapable: boolean): BoundEndpoint[] {
  const seen = new Map<string, BoundEndpoint>();
  for (const specs of [ctx.desired, ctx.observed]) {
    for (const [component, spec] of Object.entries(specs)) {
      const kind = typeof spec.component === 'string' ? spec.component : '';
      if (onlyTlsCapable && catalogEntry(kind)?.supportsTls === false) continue;
      for (const e of spec.endpoints ?? []) {
        if (typeof e?.url !== 'string') continue;
        const key = `${component}/${String(e.name)}/${e.url}`;
        if (!seen.has(key)) seen.set(key, { component, name: String(e.name), url: e.url });
      }
    }
  }
  return [...seen.values()];
}
