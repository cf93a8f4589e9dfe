// The rules on where the clusters' connections go: images only from the internal mirror, the audit log to a
// remote syslog that takes it, and every bound host inside private networks.
import type { CheckResult } from '../../contract/check-types';
import { parseImageReference } from '../checks/mirror';
import { probeSyslog, targetLabel } from '../audit/syslog-sender';
import { syslogTarget } from '../audit/syslog-settings';
import { dnsServers } from '../checks/dns-settings';
import { classifyHost } from '../checks/private-networks';
import { parseEndpointUrl } from '../checks/tls-endpoint';
import { TEXT } from './profile-texts';
import { endpointsOf, httpsProbe, notSet, result, tlsOk, type RuleContext } from './rule-context';

export async function mirrorOnly(ctx: RuleContext, at: string): Promise<CheckResult> {
  const mirror = ctx.deps.tables.reports.mirror();
  if (!mirror.url) return notSet('mirror_only', 'read the internal mirror setting', 'mirror_url', TEXT.noMirror, at);
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

export async function syslogRule(ctx: RuleContext, at: string): Promise<CheckResult> {
  const target = syslogTarget(ctx.deps.tables);
  if (!target) return notSet('syslog_remote_audit', 'read the remote audit (syslog) setting', 'target', TEXT.noSyslogTarget, at);
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

function boundHosts(ctx: RuleContext): { what: string; host: string }[] {
  const hosts: { what: string; host: string }[] = [];
  const mirror = ctx.deps.tables.reports.mirror().url;
  if (mirror) hosts.push({ what: 'mirror', host: new URL(mirror).hostname });
  const syslog = syslogTarget(ctx.deps.tables);
  if (syslog) hosts.push({ what: 'syslog', host: syslog.host });
  const access = ctx.deps.tables.clusterAccess.access(ctx.cluster.id);
  if (access) hosts.push({ what: 'kubernetes-api', host: new URL(access.server).hostname.replace(/^\[|\]$/g, '') });
  for (const e of endpointsOf(ctx, false)) {
    const u = parseEndpointUrl(e.url);
    if (u) hosts.push({ what: `endpoint ${e.component}/${e.name}`, host: u.host });
  }
  return hosts;
}

export async function privateEgress(ctx: RuleContext, at: string): Promise<CheckResult> {
  const servers = dnsServers(ctx.deps.tables);
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
