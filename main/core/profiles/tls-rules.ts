// The rules on TLS: the console and gateway listeners, the service endpoints, and every connection to the
// customer's infrastructure, each judged by a real handshake.
import type { CheckResult } from '../../contract/check-types';
import { probeGateway } from '../checks/gateway-probe';
import { probeSyslog, targetLabel } from '../audit/syslog-sender';
import { syslogTarget } from '../audit/syslog-settings';
import { parseEndpointUrl } from '../checks/tls-endpoint';
import { TEXT } from './profile-texts';
import { endpointTrust } from './endpoint-trust';
import { judgeHostEndpoints } from './host-tls-endpoints';
import { endpointsOf, httpsProbe, notSet, result, tlsOk, type RuleContext } from './rule-context';

export async function consoleTls(ctx: RuleContext, at: string): Promise<CheckResult> {
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
    return notSet('console_tls', 'looked for the console listener of this manager', 'listener', TEXT.consoleListenerUnknown, at);
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

export async function agentClientCertificates(ctx: RuleContext, at: string): Promise<CheckResult> {
  const g = ctx.deps.listeners.gateway;
  if (!g) return notSet('agent_client_certificates', 'looked for the agent gateway of this manager', 'gateway', TEXT.noGateway, at);
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

export async function endpointsTls(ctx: RuleContext, id: 'service_tls' | 'endpoint_tls', at: string): Promise<CheckResult> {
  // On hosts the services declare no endpoint URLs: each host's own agent handshakes with the catalog's ports.
  if (ctx.cluster.kind === 'hosts') {
    if (!ctx.deps.hostTls) throw new Error('no node agent channel to observe the endpoints of this hosts cluster');
    return judgeHostEndpoints(id, await ctx.deps.hostTls(ctx.cluster.id, id === 'service_tls'), at);
  }
  const endpoints = endpointsOf(ctx, id === 'service_tls');
  const trust = [ctx.deps.caPem, ...endpointTrust(ctx.deps.tables)];
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
  // Nothing bound is nothing observed: said, never passed.
  if (checked.length === 0) return result(id, 'warn', evidence, TEXT.noServiceEndpoint, at);
  const failing = checked.filter((c) => !c.ok);
  if (failing.length === 0) return result(id, 'pass', evidence, null, at);
  const list = failing.map((f) => `${f.component}/${f.name} ${f.url} (${f.problem})`).join('; ');
  return result(id, 'fail', evidence, TEXT.notTlsOrUntrusted(list), at);
}

export async function customerConnectionsTls(ctx: RuleContext, at: string): Promise<CheckResult> {
  const problems: string[] = [];
  const connections: unknown[] = [];
  const access = ctx.deps.tables.clusterAccess.access(ctx.cluster.id);
  if (access) {
    const u = new URL(access.server);
    if (u.protocol !== 'https:') problems.push(`Kubernetes API ${access.server} is not https`);
    else {
      const probe = await httpsProbe(ctx, access.server, access.ca_pem, access.tls_server_name);
      connections.push({ what: 'kubernetes-api', url: access.server, probe });
      if (!tlsOk(probe)) problems.push(`Kubernetes API ${access.server} (${probe.message})`);
    }
  }
  const mirror = ctx.deps.tables.reports.mirror();
  if (mirror.url) {
    const probe = await httpsProbe(ctx, mirror.url, mirror.ca_pem);
    connections.push({ what: 'mirror', url: mirror.url, probe });
    if (!tlsOk(probe)) problems.push(`mirror ${mirror.url} (${probe.message})`);
  }
  const syslog = syslogTarget(ctx.deps.tables);
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
