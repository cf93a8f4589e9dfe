// The TLS preflight: the console CA's validity, a real handshake with the agent gateway and with every TLS
// endpoint bound to the services. Expired, untrusted or refused: fail; under 14 days to expiry: warn.
import { X509Certificate } from 'node:crypto';
import type { Listeners } from '../listeners';
import { endpointTrust } from '../profiles/endpoint-trust';
import { parseEndpointUrl, probeTlsEndpoint } from '../checks/tls-endpoint';
import { probeGateway } from '../checks/gateway-probe';
import { bilingual } from '../../contract/bilingual';
import { TEXT } from './preflight-texts';
import type { Tables } from '../domain-tables';
import type { CheckResult } from '../../contract/check-types';
import { check } from '../checks/check';

export const EXPIRY_WARN_DAYS = 14;
const DAY_MS = 86_400_000;

const T = { ca: TEXT.caTitle, gateway: TEXT.gatewayTitle, endpoint: TEXT.endpointTitle };

function expiryStatus(validTo: Date, now: Date): { status: 'pass' | 'warn' | 'fail'; days_left: number } {
  const days_left = Math.floor((validTo.getTime() - now.getTime()) / DAY_MS);
  return { status: validTo <= now ? 'fail' : days_left < EXPIRY_WARN_DAYS ? 'warn' : 'pass', days_left };
}

export function caCheck(caPem: string, now: Date, at: string): CheckResult {
  const ca = new X509Certificate(caPem);
  const validTo = new Date(ca.validTo);
  const { status, days_left } = expiryStatus(validTo, now);
  const evidence = {
    method: 'read the validity of the manager CA certificate',
    subject: ca.subject,
    valid_from: new Date(ca.validFrom).toISOString(),
    valid_to: validTo.toISOString(),
    days_left,
    fingerprint256: ca.fingerprint256,
  };
  if (new Date(ca.validFrom) > now) return check('tls.console_ca', T.ca, 'fail', evidence, TEXT.caNotYetValid, at);
  return check('tls.console_ca', T.ca, status, evidence, status === 'fail' ? TEXT.caExpired : TEXT.caExpiresIn(days_left), at);
}

export async function gatewayCheck(listeners: Listeners, caPem: string, now: Date, at: () => string): Promise<CheckResult> {
  const g = listeners.gateway;
  if (!g)
    return check(
      'tls.gateway',
      T.gateway,
      'warn',
      { method: 'looked for the agent gateway of this manager', gateway: null },
      TEXT.noGateway,
      at(),
    );
  const probe = await probeGateway(g, caPem, 'none');
  const evidence = { method: `TLS handshake with ${g.host}:${g.port} (${g.serverName}), the manager CA the only trust anchor`, probe };
  if (probe.error || !probe.server_certificate || !probe.server_certificate_trusted)
    return check(
      'tls.gateway',
      T.gateway,
      'fail',
      evidence,
      probe.error ? bilingual(probe.error, probe.error) : TEXT.gatewayUntrusted,
      at(),
    );
  const { status, days_left } = expiryStatus(new Date(probe.server_certificate.valid_to), now);
  return check(
    'tls.gateway',
    T.gateway,
    status,
    { ...evidence, days_left },
    status === 'fail' ? TEXT.gatewayExpired : TEXT.gatewayExpiresIn(days_left),
    at(),
  );
}

type Spec = { endpoints?: { name?: unknown; url?: unknown }[] };

export async function endpointChecks(
  tables: Tables<'settings'>,
  caPem: string,
  components: Record<string, Spec>,
  now: Date,
  at: () => string,
  timeoutMs?: number,
): Promise<CheckResult[]> {
  const trust = [caPem, ...endpointTrust(tables)];
  const jobs: Promise<CheckResult>[] = [];
  for (const [component, spec] of Object.entries(components)) {
    for (const e of spec.endpoints ?? []) {
      const u = typeof e?.url === 'string' ? parseEndpointUrl(e.url) : null;
      if (!u || (u.scheme !== 'https' && u.scheme !== 'tls')) continue;
      const name = String(e.name);
      jobs.push(
        probeTlsEndpoint({ host: u.host, port: u.port, serverName: u.host, caPems: trust, now, timeoutMs }).then((probe) => {
          const evidence = {
            method: `TLS handshake with ${e.url as string}, trusting the manager CA and the trusted CAs for service endpoints`,
            probe,
          };
          const id = `tls.endpoint.${component}.${name}`;
          if (probe.verdict === 'ok') return check(id, T.endpoint(component, name), 'pass', evidence, null, at());
          if (probe.verdict === 'expiring')
            return check(id, T.endpoint(component, name), 'warn', evidence, TEXT.certificateExpiresIn(probe.certificate?.days_left), at());
          return check(id, T.endpoint(component, name), 'fail', evidence, TEXT.endpointRefused(probe.verdict, probe.message), at());
        }),
      );
    }
  }
  return Promise.all(jobs);
}
