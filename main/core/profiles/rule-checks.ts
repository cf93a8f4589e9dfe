// How each profile rule is evaluated, always on real state: handshakes with the listeners and endpoints, the
// accounts as they are, the syslog target probed, the components in the desired state and in the cluster.
import type { Accounts } from '../accounts/accounts';
import type { Clock } from '../clock';
import type { Registration } from '../clusters/registration';
import { checkComponentSpec } from '../commands/component-spec';
import { catalogEntry } from '../commands/component-catalog';
import { loadBuiltinCatalog } from '../catalog/catalog-builtin';
import { describeProblem, type CatalogLoad } from '../catalog/catalog-loader';
import type { Listeners } from '../listeners';
import type { CheckResult, CheckStatus } from '../checks/check-types';
import { check } from '../checks/check';
import { probeGateway } from '../checks/gateway-probe';
import { parseImageReference } from '../checks/mirror';
import type { Bilingual } from '../checks/bilingual';
import type { ClusterRecord } from '../store/clusters-table';
import type { Store } from '../store/store';
import { probeSyslog, targetLabel } from '../audit/syslog-sender';
import type { SyslogForwarderStatus } from '../audit/syslog-forwarder';
import { syslogTarget } from '../audit/syslog-settings';
import { dnsServers } from '../checks/dns-settings';
import { classifyHost } from '../checks/private-networks';
import { parseEndpointUrl, probeTlsEndpoint, type TlsEndpointResult } from '../checks/tls-endpoint';
import { MFA_ROLES, type RuleId } from './profile-rules';
import { RULE_TITLES, TEXT } from './profile-texts';
import { endpointTrust } from './endpoint-trust';

export interface RuleDeps {
  store: Store;
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
}

type Spec = { component?: unknown; artifacts?: { image?: unknown }[]; endpoints?: { name?: unknown; url?: unknown }[]; sandbox?: unknown };

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
  const desired = { ...((deps.store.commands.desiredState(cluster.id)?.components ?? {}) as Record<string, Spec>) };
  if (target) desired[target.name] = target.spec as Spec;
  const snapshot = deps.store.clusterAccess.latestAgentSnapshot(cluster.id);
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
const result = (id: RuleId, status: CheckStatus, evidence: CheckResult['evidence'], reason: Bilingual | null, at: string): CheckResult =>
  check(`profile.${id}`, RULE_TITLES[id], status, evidence, reason, at);

const tlsOk = (r: TlsEndpointResult): boolean => r.verdict === 'ok' || r.verdict === 'expiring';

/** A TLS handshake with the host of an https:// URL (443 by default), trusting its CA when one is set. */
function httpsProbe(ctx: RuleContext, url: string, caPem: string | null, serverName?: string | null): Promise<TlsEndpointResult> {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  return ctx.tlsProbe(host, Number(u.port || 443), caPem ? [caPem] : [], serverName ?? host);
}

async function consoleTls(ctx: RuleContext, at: string): Promise<CheckResult> {
  const { listeners, mode, caPem } = ctx.deps;
  const c = listeners.console;
  if (!c) {
    if (mode === 'desktop')
      return result(
        'console_tls',
        'pass',
        { method: 'looked for a network listener of the console', listener: null, transport: 'Electron IPC inside the desktop window' },
        null,
        at,
      );
    return result(
      'console_tls',
      'fail',
      { method: 'looked for the console listener of this manager', listener: null },
      TEXT.consoleListenerUnknown,
      at,
    );
  }
  const probe = await ctx.tlsProbe(c.host, c.port, [caPem], c.serverName);
  const evidence = { method: `TLS handshake with the console listener ${c.host}:${c.port}, trusting the manager CA only`, probe };
  if (!tlsOk(probe)) return result('console_tls', 'fail', evidence, TEXT.consoleHandshakeFailed(probe.message), at);
  return result(
    'console_tls',
    probe.verdict === 'expiring' ? 'warn' : 'pass',
    evidence,
    TEXT.certificateExpiresIn(probe.certificate?.days_left),
    at,
  );
}

async function agentClientCertificates(ctx: RuleContext, at: string): Promise<CheckResult> {
  const g = ctx.deps.listeners.gateway;
  if (!g)
    return result(
      'agent_client_certificates',
      'fail',
      { method: 'looked for the agent gateway of this manager', gateway: null },
      TEXT.noGateway,
      at,
    );
  const [none, foreign] = await Promise.all([probeGateway(g, ctx.deps.caPem, 'none'), probeGateway(g, ctx.deps.caPem, 'foreign-ca')]);
  const evidence = {
    method: `TLS connections to the gateway ${g.host}:${g.port} without a client certificate and with one from a foreign CA`,
    without_certificate: none,
    foreign_certificate: foreign,
  };
  const bad = [none, foreign].find((p) => p.error || p.request_answered);
  if (!bad) return result('agent_client_certificates', 'pass', evidence, null, at);
  const reason = bad.error
    ? TEXT.gatewayProbeFailed(bad.error)
    : TEXT.gatewayAnsweredClient(bad.http_status, bad.client_certificate === 'none');
  return result('agent_client_certificates', 'fail', evidence, reason, at);
}

interface BoundEndpoint {
  component: string;
  name: string;
  url: string;
}

function endpointsOf(ctx: RuleContext, onlyTlsCapable: boolean): BoundEndpoint[] {
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

async function endpointsTls(ctx: RuleContext, id: 'service_tls' | 'endpoint_tls', at: string): Promise<CheckResult> {
  const endpoints = endpointsOf(ctx, id === 'service_tls');
  const trust = [ctx.deps.caPem, ...endpointTrust(ctx.deps.store)];
  const checked = await Promise.all(
    endpoints.map(async (e) => {
      const u = parseEndpointUrl(e.url);
      if (!u) return { ...e, ok: false, problem: 'not a URL the console can check' };
      if (u.scheme === 'http' || u.scheme === 'tcp') return { ...e, ok: false, problem: `${u.scheme}:// is not TLS` };
      const probe = await ctx.tlsProbe(u.host, u.port, trust, u.host);
      return { ...e, ok: tlsOk(probe), problem: tlsOk(probe) ? null : probe.message, probe };
    }),
  );
  const method =
    id === 'service_tls'
      ? 'a TLS handshake with each endpoint of every service whose catalog entry supports TLS'
      : 'a TLS handshake with every endpoint bound to the services';
  const evidence = { method, trust: 'the manager CA and the trusted CAs for service endpoints (Settings)', endpoints: checked };
  const failing = checked.filter((c) => !c.ok);
  if (failing.length === 0) return result(id, 'pass', evidence, null, at);
  const list = failing.map((f) => `${f.component}/${f.name} ${f.url} (${f.problem})`).join('; ');
  return result(id, 'fail', evidence, TEXT.notTlsOrUntrusted(list), at);
}

function mfaRule(ctx: RuleContext, id: 'mfa_admin_roles' | 'mfa_local_admins', at: string): CheckResult {
  // The roles the login demands a second factor of under this profile: every account holding one must have it.
  const roles: readonly string[] = MFA_ROLES[ctx.cluster.profile];
  const accounts = ctx.deps.accounts.mfaEnrolment().filter((a) => roles.includes(a.role));
  const missing = accounts.filter((a) => !a.enrolled).map((a) => a.name);
  const evidence = { method: 'read the TOTP enrolment of every local account with these roles', roles, accounts };
  if (missing.length === 0) return result(id, 'pass', evidence, null, at);
  return result(id, 'fail', evidence, TEXT.noTotp(missing.join(', ')), at);
}

async function mirrorOnly(ctx: RuleContext, at: string): Promise<CheckResult> {
  const mirror = ctx.deps.store.reports.mirror();
  if (!mirror.url)
    return result('mirror_only', 'fail', { method: 'read the internal mirror setting', mirror_url: null }, TEXT.noMirror, at);
  const u = new URL(mirror.url);
  const prefix = u.pathname.replace(/^\/+|\/+$/g, '');
  const images: { component: string; image: string; registry: string | null; from_mirror: boolean }[] = [];
  for (const specs of [ctx.desired, ctx.observed]) {
    for (const [component, spec] of Object.entries(specs)) {
      for (const a of spec.artifacts ?? []) {
        if (typeof a?.image !== 'string' || images.some((i) => i.component === component && i.image === a.image)) continue;
        const ref = parseImageReference(a.image);
        const fromMirror = !!ref && ref.registry === u.host && (!prefix || ref.repository.startsWith(`${prefix}/`));
        images.push({ component, image: a.image, registry: ref?.registry ?? null, from_mirror: fromMirror });
      }
    }
  }
  const probe = await httpsProbe(ctx, mirror.url, mirror.ca_pem);
  const evidence = {
    method: 'compared the registry of every artifact image with the mirror, and a TLS handshake with the mirror',
    mirror_url: mirror.url,
    images,
    mirror_probe: probe,
  };
  const foreign = images.filter((i) => !i.from_mirror);
  if (foreign.length > 0)
    return result('mirror_only', 'fail', evidence, TEXT.imagesNotFromMirror(foreign.map((f) => f.image).join(', ')), at);
  if (!tlsOk(probe)) return result('mirror_only', 'fail', evidence, TEXT.mirrorNotTrustedTls(probe.message), at);
  return result('mirror_only', 'pass', evidence, null, at);
}

async function syslogRule(ctx: RuleContext, at: string): Promise<CheckResult> {
  const target = syslogTarget(ctx.deps.store);
  if (!target)
    return result(
      'syslog_remote_audit',
      'fail',
      { method: 'read the remote audit (syslog) setting', target: null },
      TEXT.noSyslogTarget,
      at,
    );
  const probe = await probeSyslog({ ...target }, ctx.deps.timeoutMs);
  const forwarder = ctx.deps.syslogStatus?.() ?? null;
  const evidence = {
    method: `sent an RFC 5424 test message to ${targetLabel(target)} and read the state of the audit forwarder`,
    target: { ...target, ca_pem: target.ca_pem ? 'set' : undefined },
    probe,
    forwarder,
  };
  if (!probe.reachable) return result('syslog_remote_audit', 'fail', evidence, TEXT.syslogUnreachable(probe.message), at);
  if (forwarder?.running && forwarder.consecutive_failures > 0 && forwarder.last_error) {
    const e = forwarder.last_error;
    return result('syslog_remote_audit', 'fail', evidence, TEXT.forwarderFailing(forwarder.pending, e.message), at);
  }
  return result('syslog_remote_audit', 'pass', evidence, null, at);
}

function noSandbox(ctx: RuleContext, at: string): CheckResult {
  const sandboxes = [
    ...new Set([...Object.entries(ctx.desired), ...Object.entries(ctx.observed)].filter(([, s]) => s.sandbox === true).map(([n]) => n)),
  ];
  const evidence = {
    method: 'read the sandbox flag of every component in the desired state and in the cluster (agent report)',
    components: [...new Set([...Object.keys(ctx.desired), ...Object.keys(ctx.observed)])],
    sandboxes,
  };
  if (sandboxes.length === 0) return result('no_sandbox', 'pass', evidence, null, at);
  return result('no_sandbox', 'fail', evidence, TEXT.sandboxesPresent(sandboxes.join(', ')), at);
}

function fourEyes(ctx: RuleContext, at: string): CheckResult {
  const admins = ctx.deps.accounts
    .mfaEnrolment()
    .filter((a) => a.role === 'admin')
    .map((a) => a.name);
  const evidence = { method: 'counted the admins who can approve (an approval needs an admin other than the requester)', admins };
  if (admins.length >= 2) return result('four_eyes', 'pass', evidence, null, at);
  return result('four_eyes', 'fail', evidence, TEXT.secondAdminNeeded(admins.length), at);
}

function boundHosts(ctx: RuleContext): { what: string; host: string }[] {
  const hosts: { what: string; host: string }[] = [];
  const mirror = ctx.deps.store.reports.mirror().url;
  if (mirror) hosts.push({ what: 'mirror', host: new URL(mirror).hostname });
  const syslog = syslogTarget(ctx.deps.store);
  if (syslog) hosts.push({ what: 'syslog', host: syslog.host });
  const access = ctx.deps.store.clusterAccess.access(ctx.cluster.id);
  if (access) hosts.push({ what: 'kubernetes-api', host: new URL(access.server).hostname.replace(/^\[|\]$/g, '') });
  for (const e of endpointsOf(ctx, false)) {
    const u = parseEndpointUrl(e.url);
    if (u) hosts.push({ what: `endpoint ${e.component}/${e.name}`, host: u.host });
  }
  return hosts;
}

async function privateEgress(ctx: RuleContext, at: string): Promise<CheckResult> {
  const servers = dnsServers(ctx.deps.store);
  const checked = await Promise.all(boundHosts(ctx).map(async (h) => ({ ...h, ...(await classifyHost(h.host, servers)) })));
  const evidence = {
    method: 'resolved the host of every bound connection (mirror, syslog, Kubernetes API, service endpoints) and classified each address',
    webhooks: 'the console sends no webhook; webhook endpoints of the services are checked as endpoints',
    connections: checked,
  };
  const outside = checked.filter((c) => !c.private);
  if (outside.length === 0) return result('private_egress', 'pass', evidence, null, at);
  const list = outside.map((o) => `${o.what} ${o.host}`).join(', ');
  return result('private_egress', 'fail', evidence, TEXT.outsidePrivateNetworks(list), at);
}

async function customerConnectionsTls(ctx: RuleContext, at: string): Promise<CheckResult> {
  const problems: string[] = [];
  const connections: unknown[] = [];
  const access = ctx.deps.store.clusterAccess.access(ctx.cluster.id);
  if (access) {
    const u = new URL(access.server);
    if (u.protocol !== 'https:') problems.push(`Kubernetes API ${access.server} is not https`);
    else {
      const probe = await httpsProbe(ctx, access.server, access.ca_pem, access.tls_server_name);
      connections.push({ what: 'kubernetes-api', url: access.server, probe });
      if (!tlsOk(probe)) problems.push(`Kubernetes API ${access.server} (${probe.message})`);
    }
  }
  const mirror = ctx.deps.store.reports.mirror();
  if (mirror.url) {
    const probe = await httpsProbe(ctx, mirror.url, mirror.ca_pem);
    connections.push({ what: 'mirror', url: mirror.url, probe });
    if (!tlsOk(probe)) problems.push(`mirror ${mirror.url} (${probe.message})`);
  }
  const syslog = syslogTarget(ctx.deps.store);
  if (syslog) {
    if (syslog.transport !== 'tls') problems.push(`syslog ${targetLabel(syslog)} is not TLS (use the tls transport, RFC 5425)`);
    else {
      const probe = await probeSyslog({ ...syslog }, ctx.deps.timeoutMs);
      connections.push({ what: 'syslog', target: targetLabel(syslog), probe });
      if (!probe.reachable) problems.push(`syslog ${targetLabel(syslog)} (${probe.message})`);
    }
  }
  const endpoints = await endpointsTls(ctx, 'endpoint_tls', at);
  connections.push({ what: 'service endpoints', result: endpoints.evidence });
  if (endpoints.status === 'fail') problems.push(endpoints.reason!.en);
  const evidence = {
    method:
      "a TLS handshake with every connection to the customer's infrastructure: the Kubernetes API, the mirror, the syslog target and the service endpoints",
    connections,
  };
  if (problems.length === 0) return result('customer_connections_tls', 'pass', evidence, null, at);
  return result('customer_connections_tls', 'fail', evidence, TEXT.problems(problems), at);
}

/**
 * The catalog itself (every descriptor of resources/catalog against the schema and the cross-checks), then each
 * component of the desired state: a service of the catalog with a valid spec. A version the catalog does not
 * declare only warns: nothing is known of its artifacts, checks or upgrades, but the spec may name its images.
 */
function catalogValid(ctx: RuleContext, at: string): CheckResult {
  const load = ctx.deps.catalog ?? loadBuiltinCatalog();
  const invalid: { component: string; problem: string }[] = [];
  const undeclared: { component: string; service: string; version: string; declared: string[] }[] = [];
  if (!load.ok) {
    const problems = load.error.problems;
    const list = problems.map(describeProblem).join('; ');
    return result(
      'catalog_valid',
      'fail',
      { method: 'validated every catalog descriptor against the schema and the cross-checks', catalog: { valid: false, problems } },
      TEXT.catalogInvalid(list),
      at,
    );
  }
  const catalog = load.catalog;
  for (const [name, spec] of Object.entries(ctx.desired)) {
    try {
      checkComponentSpec(spec);
    } catch (error) {
      invalid.push({ component: name, problem: (error as Error).message });
      continue;
    }
    const service = catalog.service(String(spec.component));
    if (!service) {
      invalid.push({ component: name, problem: `${String(spec.component)} is not a service of the catalog` });
      continue;
    }
    const version = String((spec as { version?: unknown }).version);
    if (!catalog.version(service.service, version))
      undeclared.push({ component: name, service: service.service, version, declared: service.versions.map((v) => v.version) });
  }
  const evidence = {
    method:
      'validated every catalog descriptor (schema and cross-checks), then checked every component of the desired state against the catalog and the ManagedComponent schema',
    catalog: { valid: true, digest: catalog.digest, files: catalog.sources },
    components: Object.keys(ctx.desired),
    invalid,
    undeclared_versions: undeclared,
  };
  if (invalid.length > 0) {
    const list = invalid.map((i) => `${i.component}: ${i.problem}`).join('; ');
    return result('catalog_valid', 'fail', evidence, TEXT.componentsInvalid(list), at);
  }
  if (undeclared.length > 0) return result('catalog_valid', 'warn', evidence, TEXT.versionsUndeclared(undeclared), at);
  return result('catalog_valid', 'pass', evidence, null, at);
}

/** A rule that cannot run (an unreadable stored value, a probe that throws) fails with that reason. */
export async function evaluateRule(id: RuleId, ctx: RuleContext): Promise<CheckResult> {
  const at = ctx.deps.clock.now().toISOString();
  try {
    return await runRule(id, ctx, at);
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    return result(id, 'fail', { method: 'the rule could not run', error: message }, TEXT.checkCouldNotRun(message), at);
  }
}

function runRule(id: RuleId, ctx: RuleContext, at: string): Promise<CheckResult> | CheckResult {
  switch (id) {
    case 'catalog_valid':
      return catalogValid(ctx, at);
    case 'console_tls':
      return consoleTls(ctx, at);
    case 'agent_client_certificates':
      return agentClientCertificates(ctx, at);
    case 'service_tls':
    case 'endpoint_tls':
      return endpointsTls(ctx, id, at);
    case 'mfa_admin_roles':
    case 'mfa_local_admins':
      return mfaRule(ctx, id, at);
    case 'mirror_only':
      return mirrorOnly(ctx, at);
    case 'syslog_remote_audit':
      return syslogRule(ctx, at);
    case 'no_sandbox':
      return noSandbox(ctx, at);
    case 'four_eyes':
      return fourEyes(ctx, at);
    case 'private_egress':
      return privateEgress(ctx, at);
    case 'customer_connections_tls':
      return customerConnectionsTls(ctx, at);
  }
}
