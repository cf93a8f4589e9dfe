// The names a certificate request may carry (a plan's tls.csr): a common name and the host names and IP
// addresses that become its SANs, judged alike on both sides. Portable: no Node APIs.

export const MAX_CSR_NAMES = 100;
/** X.509 bounds a common name at 64 characters; printable ASCII keeps it a PrintableString or UTF8String alike. */
const COMMON_NAME = /^[\x20-\x7e]{1,64}$/;
const DNS_LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${OCTET}(\\.${OCTET}){3}$`);

/** A host name as a certificate names it: dot-separated labels of letters, digits and inner "-" (no wildcard). */
export const isDnsName = (n: unknown): n is string =>
  typeof n === 'string' && n.length <= 253 && n.split('.').every((label) => DNS_LABEL.test(label));

/** An IPv4 address in dotted decimal, or an IPv6 address (any form a URL accepts, no zone). */
export function isIpAddress(a: unknown): a is string {
  if (typeof a !== 'string' || a.length > 64) return false;
  if (IPV4.test(a)) return true;
  // The URL parser judges IPv6 portably; the character set first keeps the text inside the brackets.
  if (!a.includes(':') || !/^[0-9A-Fa-f:.]+$/.test(a)) return false;
  try {
    new URL(`http://[${a}]/`);
    return true;
  } catch {
    return false;
  }
}

/** Why {common_name, dns_names, ip_addresses} are not the names of a request, or null. */
export function csrNamesProblem(t: { common_name?: unknown; dns_names?: unknown; ip_addresses?: unknown }): string | null {
  if (typeof t.common_name !== 'string' || !COMMON_NAME.test(t.common_name)) return 'common_name is 1-64 printable ASCII characters';
  const list = (v: unknown): v is unknown[] => Array.isArray(v) && v.length <= MAX_CSR_NAMES;
  if (!list(t.dns_names)) return `dns_names is a list of at most ${MAX_CSR_NAMES} host names`;
  if (!list(t.ip_addresses)) return `ip_addresses is a list of at most ${MAX_CSR_NAMES} IP addresses`;
  const dns = t.dns_names.find((n) => !isDnsName(n));
  if (dns !== undefined) return `dns_names: ${JSON.stringify(dns)} is not a host name`;
  const ip = t.ip_addresses.find((a) => !isIpAddress(a));
  if (ip !== undefined) return `ip_addresses: ${JSON.stringify(ip)} is not an IP address`;
  // Clients match the SANs, not the common name (Go ignores it): a request without one names nothing.
  if (t.dns_names.length + t.ip_addresses.length === 0) return 'a request names at least one host name or IP address';
  return null;
}
