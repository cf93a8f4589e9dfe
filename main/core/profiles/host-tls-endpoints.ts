// The TLS rules on a hosts cluster, without I/O: which endpoints they judge (each TLS port of each installed
// service, on each of its hosts), the read-only plan that has the host's own agent handshake with one, and the
// verdict over what the agents saw. The observing (plans issued, answers awaited) is host-tls-observer.ts.
import { bilingualTexts } from '../../contract/bilingual';
import type { CheckResult, CheckStatus } from '../../contract/check-types';
import type { CatalogDescriptor } from '../catalog/catalog-schema';
import { HOST_LAYOUT } from '../catalog/catalog-templates';
import { NODE_AGENT_IDENTITY_DIR } from '../../wire/node-agent';
import type { PlanArgs, PlanResult } from '../../wire/plan';
import type { CheckOutcome, CheckParams, TlsHandshakeEvidence } from '../../wire/service-checks';
import { result } from './rule-context';

export interface HostEndpoint {
  service: string;
  /** The port's name in the catalog descriptor. */
  port_name: string;
  port: number;
  host_id: string;
  host_name: string;
  /** The host's address, which the service listens on and its certificate names. */
  address: string;
  starttls?: 'nats';
}

/** What one endpoint's agent answered: the check's outcome, or why there is none. */
export interface EndpointObservation {
  endpoint: HostEndpoint;
  outcome: CheckOutcome | null;
  /** With no outcome: what the plan ended with (its code), or that no answer came in time. */
  missing?: string;
  /** When the host holds no TLS files of the service: a handshake trusting the agent's own CA file, to see whether the port speaks TLS at all. */
  bare?: CheckOutcome | null;
}

export interface InstalledService {
  service: string;
  /** Host ids, in member order. */
  hosts: string[];
}

/**
 * NATS sends its INFO in clear on its client and route ports before a client upgrades to TLS (tls_required in
 * the INFO); a handshake there must read it first, as a NATS client or route does. Its monitoring port is https.
 */
const STARTTLS: Record<string, Record<string, 'nats'>> = { nats: { client: 'nats', cluster: 'nats' } };

/**
 * Every endpoint to judge: for service_tls the ports marked tls of the services whose descriptor supports TLS,
 * for endpoint_tls every port of every installed service; on each host of the service. A service or host the
 * manager no longer knows is left out (nothing to dial).
 */
export function hostEndpoints(
  installed: readonly InstalledService[],
  hostOf: (id: string) => { name: string; address: string } | undefined,
  descriptorOf: (service: string) => CatalogDescriptor | undefined,
  onlyTlsCapable: boolean,
): HostEndpoint[] {
  const out: HostEndpoint[] = [];
  for (const s of installed) {
    const desc = descriptorOf(s.service);
    if (!desc || (onlyTlsCapable && !desc.supports_tls)) continue;
    const ports = Object.entries(desc.ports).filter(([, p]) => !onlyTlsCapable || p.tls);
    for (const hostId of s.hosts) {
      const host = hostOf(hostId);
      if (!host) continue;
      for (const [name, p] of ports) {
        const starttls = STARTTLS[s.service]?.[name];
        out.push({
          service: s.service,
          port_name: name,
          port: p.port,
          host_id: hostId,
          host_name: host.name,
          address: host.address,
          ...(starttls ? { starttls } : {}),
        });
      }
    }
  }
  return out;
}

/**
 * The service's TLS files where an install writes them (catalog-templates' defaults under the service's config
 * folder): its CA as the only trust anchor, and its own certificate as the client one, which etcd's client and
 * peer ports demand and the other services ignore.
 */
export const serviceTlsFiles = (service: string): { ca_file: string; cert_file: string; key_file: string } => {
  const dir = `${HOST_LAYOUT.config(service)}/tls`;
  return { ca_file: `${dir}/ca.crt`, cert_file: `${dir}/tls.crt`, key_file: `${dir}/tls.key` };
};

export const HANDSHAKE_TASK = 'tls-handshake';

/**
 * The read-only plan: one tls.handshake check of the endpoint, run by the agent of its host. `bare`, for a host
 * that holds no TLS files of the service, trusts the manager CA the agent was enrolled with (always on the host)
 * and presents nothing: it cannot pass a service certificate, only tell a plaintext port from a TLS one.
 */
export function handshakePlan(e: HostEndpoint, timeoutMs: number, bare = false): PlanArgs {
  const params: CheckParams<'tls.handshake'> = {
    host: e.address,
    port: e.port,
    ...(bare ? { ca_file: `${NODE_AGENT_IDENTITY_DIR}/ca.crt` } : serviceTlsFiles(e.service)),
    ...(e.starttls ? { starttls: e.starttls } : {}),
    timeout_ms: timeoutMs,
  };
  return {
    title: `TLS handshake with ${e.service} ${e.port_name} on ${e.host_name} (profile rule)`,
    tasks: [
      {
        id: HANDSHAKE_TASK,
        kind: 'check',
        title: `handshake with ${label(e)}`,
        check: { kind: 'tls.handshake', params: params as unknown as Record<string, unknown> },
      },
    ],
  };
}

/** The handshake's outcome in a plan's result: the task's output, whether the check passed or failed. */
export function outcomeOf(planResult: unknown): CheckOutcome | null {
  const task = (planResult as Partial<PlanResult> | null)?.tasks?.find((t) => t.id === HANDSHAKE_TASK);
  const check = task?.output?.check as CheckOutcome | undefined;
  return check && typeof check === 'object' && (check.status === 'pass' || check.status === 'fail') ? check : null;
}

const label = (e: HostEndpoint): string => `${e.address.includes(':') ? `[${e.address}]` : e.address}:${e.port}`;

interface Judged {
  service: string;
  port_name: string;
  host: string;
  target: string;
  /** The check's (TLS_VERDICTS), no_tls_files when the host holds none, not_observed without an answer. */
  verdict: string;
  status: CheckStatus;
  message: string;
  protocol: string | null;
  subject: string | null;
  issuer: string | null;
  serial: string | null;
  not_after: string | null;
  days_left: number | null;
}

/**
 * Expired, untrusted, another name, refused and plaintext fail, as does a host holding no TLS files of the
 * service (an install without TLS); under 14 days warns. A port nothing answers on, and an endpoint whose
 * agent did not answer, warn: TLS was not observed there, which is said, never passed.
 */
const FAILING = new Set(['expired', 'untrusted', 'name_mismatch', 'refused', 'not_tls', 'no_tls_files']);

function judgeOne(o: EndpointObservation): Judged {
  const e = o.endpoint;
  const where = { service: e.service, port_name: e.port_name, host: e.host_name, target: label(e) };
  const none = { protocol: null, subject: null, issuer: null, serial: null, not_after: null, days_left: null };
  if (!o.outcome)
    return { ...where, ...none, verdict: 'not_observed', status: 'warn', message: o.missing ?? 'the host’s agent did not answer' };
  const tls = (o.outcome.evidence.tls as TlsHandshakeEvidence[] | undefined)?.[0];
  const cert = tls?.certificate ?? null;
  const seen = {
    protocol: tls?.protocol ?? null,
    subject: cert?.subject ?? null,
    issuer: cert?.issuer ?? null,
    serial: cert?.serial ?? null,
    not_after: cert?.not_after ?? null,
    days_left: cert?.days_left ?? null,
  };
  // OpenSSL's messages span lines; a reason reads as one.
  const message = (o.outcome.error?.message ?? o.outcome.warning?.message ?? String(o.outcome.evidence.message ?? ''))
    .replace(/\s+/g, ' ')
    .trim();
  // The check could not read the service's CA or certificate on the host: the service was installed without TLS,
  // and the bare handshake says whether its port speaks any.
  if (o.outcome.error?.code === 'params_invalid') {
    const bare = o.bare ? judgeOne({ endpoint: e, outcome: o.bare }) : null;
    if (bare?.verdict === 'not_tls') return { ...bare, message: `no TLS files of ${e.service} on the host, and ${bare.message}` };
    return { ...where, ...seen, verdict: 'no_tls_files', status: 'fail', message: `no TLS files of ${e.service} on the host (${message})` };
  }
  const verdict = typeof o.outcome.evidence.verdict === 'string' ? o.outcome.evidence.verdict : (o.outcome.error?.code ?? 'unknown');
  // A port nothing answers on (the service stopped) or a check that timed out: TLS was not judged there.
  const status: CheckStatus = verdict === 'ok' ? 'pass' : FAILING.has(verdict) ? 'fail' : 'warn';
  return { ...where, ...seen, verdict, status, message };
}

const TEXT = bilingualTexts(
  {
    nothing: 'no service endpoint to evaluate: no service that serves TLS is installed on this cluster',
    failing: (list: string) => `not TLS or not trusted: ${list}`,
    attention: (list: string) => `TLS needs attention or was not observed: ${list}`,
  },
  {
    nothing: 'aucun point de terminaison de service à évaluer : aucun service servant TLS n’est installé sur ce cluster',
    failing: (list: string) => `pas en TLS ou non approuvé : ${list}`,
    attention: (list: string) => `TLS à surveiller ou non observé : ${list}`,
  },
);

const METHOD: Record<'service_tls' | 'endpoint_tls', string> = {
  service_tls:
    'a TLS handshake, run by the node agent of each host, with every TLS port of every installed service whose catalog entry supports TLS',
  endpoint_tls: 'a TLS handshake, run by the node agent of each host, with every port of every installed service',
};

/**
 * The rule's result over what the agents saw. With nothing to judge it warns and says so: the rule is not met
 * by observation, and it does not block a cluster whose first service is still to be installed.
 */
export function judgeHostEndpoints(
  id: 'service_tls' | 'endpoint_tls',
  observations: readonly EndpointObservation[],
  at: string,
): CheckResult {
  const endpoints = observations.map(judgeOne);
  const evidence = {
    method: METHOD[id],
    trust: 'the cluster’s service CA as installed on each host, the service’s own certificate presented as client certificate',
    endpoints,
  };
  if (endpoints.length === 0) return result(id, 'warn', { ...evidence, endpoints: [], evaluated: 0 }, TEXT.nothing, at);
  const list = (status: CheckStatus): string =>
    endpoints
      .filter((j) => j.status === status)
      .map((j) => `${j.service} ${j.port_name} on ${j.host} ${j.target} (${j.verdict}: ${j.message})`)
      .join('; ');
  if (endpoints.some((j) => j.status === 'fail')) return result(id, 'fail', evidence, TEXT.failing(list('fail')), at);
  if (endpoints.some((j) => j.status === 'warn')) return result(id, 'warn', evidence, TEXT.attention(list('warn')), at);
  return result(id, 'pass', evidence, null, at);
}
