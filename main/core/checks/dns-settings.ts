// The DNS servers the preflight asks (setting `dns_servers`): in an air-gapped room the machine's own resolvers
// often know nothing of the customer's zones. Empty means the system resolvers.
import type { Tables } from '../domain-tables';
import { isIP } from 'node:net';
import { ValidationError } from '../errors';
import type { Store } from '../store/store';

export const DNS_SERVERS_KEY = 'dns_servers';

export function dnsServers(tables: Tables<'settings'>): string[] {
  return tables.settings.getJson<string[]>(DNS_SERVERS_KEY) ?? [];
}

/** Accepts `ip`, `ip:port` and `[ipv6]:port`, the forms node:dns setServers takes. */
export function checkDnsServers(input: readonly string[]): string[] {
  return input.map((s, i) => {
    if (!validServer(s.trim()))
      throw new ValidationError(`servers[${i}]`, `servers[${i}] must be an IP address, ip:port or [ipv6]:port, got ${JSON.stringify(s)}`);
    return s.trim();
  });
}

function validServer(s: string): boolean {
  if (isIP(s)) return true;
  const m = /^\[([^\]]+)\]:(\d{1,5})$/.exec(s) ?? /^([^:]+):(\d{1,5})$/.exec(s);
  if (!m) return false;
  const port = Number(m[2]);
  return isIP(m[1]!) !== 0 && (s.startsWith('[') ? isIP(m[1]!) === 6 : isIP(m[1]!) === 4) && port >= 1 && port <= 65535;
}

export function setDnsServers(store: Store, tables: Tables<'settings'>, input: readonly string[], actor: string): string[] {
  const servers = checkDnsServers(input);
  store.tx(() => {
    tables.settings.setJson(DNS_SERVERS_KEY, servers);
    store.audit.append({ actor, action: 'settings.dns', details: { servers } });
  });
  return servers;
}
