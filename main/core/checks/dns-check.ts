// Forward and reverse DNS as the preflight checks them: the FQDN resolves to the recorded address, and the
// address back to the FQDN, asked of the configured DNS servers (the system resolvers when none are set).
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';

export interface DnsResult {
  kind: 'forward' | 'reverse';
  query: string;
  /** The servers asked; empty means the system resolvers. */
  servers: string[];
  answers: string[];
  /** The resolver's code (ENOTFOUND is NXDOMAIN, ENODATA a name without such records, ETIMEOUT, ECONNREFUSED...). */
  error_code: string | null;
  message: string;
}

const DEFAULT_TIMEOUT_MS = 3000;

const via = (servers: string[]): string => (servers.length > 0 ? servers.join(', ') : 'the system resolvers');

function resolver(servers: string[], timeoutMs: number): dns.Resolver {
  // One try per server: the preflight wants an answer or a reason quickly, not c-ares' default four retries.
  const r = new dns.Resolver({ timeout: timeoutMs, tries: 1 });
  if (servers.length > 0) r.setServers(servers);
  return r;
}

function explain(code: string, query: string, servers: string[]): string {
  switch (code) {
    case 'ENOTFOUND':
      return `${query} does not exist (NXDOMAIN) at ${via(servers)}`;
    case 'ENODATA':
      return `${query} exists but has no such record at ${via(servers)}`;
    case 'ETIMEOUT':
      return `no answer for ${query} from ${via(servers)}`;
    case 'ECONNREFUSED':
      return `${via(servers)} refused the connection`;
    case 'EREFUSED':
      return `${via(servers)} refused to answer for ${query}`;
    case 'ESERVFAIL':
      return `${via(servers)} failed to answer for ${query} (SERVFAIL)`;
    default:
      return `${query}: ${code} from ${via(servers)}`;
  }
}

const errorCode = (e: unknown): string => (e as NodeJS.ErrnoException)?.code ?? 'EUNKNOWN';

/** A and AAAA records of fqdn. */
export async function resolveForward(servers: string[], fqdn: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<DnsResult> {
  const base = { kind: 'forward' as const, query: fqdn, servers: [...servers] };
  let r: dns.Resolver;
  try {
    r = resolver(servers, timeoutMs);
  } catch (e) {
    return { ...base, answers: [], error_code: 'invalid_server', message: `the DNS servers are not usable: ${(e as Error).message}` };
  }
  const [a, aaaa] = await Promise.allSettled([r.resolve4(fqdn), r.resolve6(fqdn)]);
  const answers = [...(a.status === 'fulfilled' ? a.value : []), ...(aaaa.status === 'fulfilled' ? aaaa.value : [])];
  if (answers.length > 0)
    return { ...base, answers, error_code: null, message: `${fqdn} resolves to ${answers.join(', ')} (via ${via(servers)})` };
  // A missing AAAA next to a failed A says nothing new: the A query's reason is the one to report.
  const code = a.status === 'rejected' ? errorCode(a.reason) : aaaa.status === 'rejected' ? errorCode(aaaa.reason) : 'ENODATA';
  return { ...base, answers, error_code: code, message: explain(code, fqdn, servers) };
}

/** PTR records of address. */
export async function resolveReverse(servers: string[], address: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<DnsResult> {
  const base = { kind: 'reverse' as const, query: address, servers: [...servers] };
  if (!isIP(address)) return { ...base, answers: [], error_code: 'invalid_address', message: `${address} is not an IP address` };
  try {
    const answers = await resolver(servers, timeoutMs).reverse(address);
    if (answers.length === 0) return { ...base, answers, error_code: 'ENODATA', message: explain('ENODATA', address, servers) };
    return { ...base, answers, error_code: null, message: `${address} resolves back to ${answers.join(', ')} (via ${via(servers)})` };
  } catch (e) {
    const code = errorCode(e);
    if (code === 'ENOTFOUND') return { ...base, answers: [], error_code: code, message: `${address} has no PTR record at ${via(servers)}` };
    return { ...base, answers: [], error_code: code, message: explain(code, address, servers) };
  }
}

const normalName = (name: string): string => name.trim().toLowerCase().replace(/\.$/, '');

/** One spelling per address, so that 2001:DB8::1 and 2001:db8:0::1 compare equal. */
export function normalAddress(address: string): string {
  const a = address.trim();
  if (isIP(a) === 6) return new URL(`http://[${a}]`).hostname.slice(1, -1);
  return a;
}

/** The forward answer contains the recorded address. */
export function forwardMatches(result: DnsResult, address: string): boolean {
  const want = normalAddress(address);
  return result.error_code === null && result.answers.some((a) => normalAddress(a) === want);
}

/** The reverse answer names the recorded FQDN (case and a trailing dot ignored). */
export function reverseMatches(result: DnsResult, fqdn: string): boolean {
  const want = normalName(fqdn);
  return result.error_code === null && result.answers.some((n) => normalName(n) === want);
}
