// Private addresses, for the air-gapped profile's rule that nothing bound to a service leaves the private
// networks: a name counts as private only when every address it resolves to is private.
import { BlockList, isIP } from 'node:net';
import { resolveForward } from './dns-check';

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['100.64.0.0', 10], // shared address space (RFC 6598), carrier-grade NAT
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['fc00::', 7],
  ['::1', 128],
  ['fe80::', 10],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');

/** RFC 1918, loopback, link-local, 100.64.0.0/10, ULA; an IPv4-mapped IPv6 address is judged as its IPv4. */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return false;
  // BlockList matches ::ffff:a.b.c.d against the IPv4 rules itself.
  return PRIVATE.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

export interface HostClassification {
  host: string;
  /** True only when the host resolved and every address is private. */
  private: boolean;
  addresses: string[];
  public_addresses: string[];
  error_code: string | null;
  message: string;
}

export async function classifyHost(host: string, servers: string[], timeoutMs?: number): Promise<HostClassification> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(bare)) addresses = [bare];
  else {
    const r = await resolveForward(servers, bare, timeoutMs);
    if (r.error_code)
      return {
        host,
        private: false,
        addresses: [],
        public_addresses: [],
        error_code: r.error_code,
        message: `cannot tell whether ${host} is private: ${r.message}`,
      };
    addresses = r.answers;
  }
  const public_addresses = addresses.filter((a) => !isPrivateAddress(a));
  const isPrivate = public_addresses.length === 0;
  return {
    host,
    private: isPrivate,
    addresses,
    public_addresses,
    error_code: null,
    message: isPrivate
      ? `${host} is on private networks only (${addresses.join(', ')})`
      : `${host} reaches outside the private networks (${public_addresses.join(', ')})`,
  };
}
