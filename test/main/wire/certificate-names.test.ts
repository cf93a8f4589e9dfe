// The names a tls.csr may ask for, and the plan rule that judges its params before the manager signs it and
// again on the host.
import { describe, expect, it } from 'vitest';
import { isDnsName, isIpAddress, MAX_CSR_NAMES } from '../../../main/wire/certificate-names';
import { DEFAULT_MANAGED_ROOTS, isManagedUnit } from '../../../main/wire/node-agent';
import { planProblem } from '../../../main/wire/plan';

const csr = {
  id: 'csr',
  kind: 'tls.csr',
  key_path: '/etc/navin/nats/tls/tls.key',
  common_name: 'nats.node-2',
  dns_names: ['node-2'],
  ip_addresses: ['192.168.10.12'],
  rotate: false,
};
const problem = (over: Record<string, unknown>): string | null =>
  planProblem({ tasks: [{ ...csr, ...over }] }, DEFAULT_MANAGED_ROOTS, isManagedUnit);

describe('certificate names', () => {
  it('takes host names of letters, digits and inner hyphens, and no wildcard', () => {
    for (const n of ['node-1', 'node-1.site.example', 'N1', 'a'.repeat(63)]) expect(isDnsName(n)).toBe(true);
    for (const n of ['', '*.site', '-node', 'node-', 'a..b', 'a.', 'a'.repeat(64), 'nœud', 'a b', `${'a.'.repeat(127)}ab`, 7])
      expect(isDnsName(n)).toBe(false);
  });

  it('takes IPv4 in dotted decimal and IPv6 in any form without a zone', () => {
    for (const a of ['10.0.0.1', '0.0.0.0', '255.255.255.255', '::1', 'fd00::11', 'FD00:0:0:0:0:0:0:11', '::ffff:10.0.0.1'])
      expect(isIpAddress(a)).toBe(true);
    for (const a of ['10.0.0.256', '10.0.0', '010.0.0.1', '1.2.3.4.5', 'fe80::1%eth0', '::1]:80/x[', 'fd00:::1', 'host', '', 12])
      expect(isIpAddress(a)).toBe(false);
  });
});

describe('a plan with tls.csr', () => {
  it('accepts a key path under a managed root, a common name and at least one SAN', () => {
    expect(problem({})).toBeNull();
    expect(problem({ dns_names: [], ip_addresses: ['fd00::12'], rotate: true })).toBeNull();
  });

  it('refuses bad params, each with its reason', () => {
    expect(problem({ key_path: '/root/tls.key' })).toMatch(/^task 0: key_path \/root\/tls\.key is not under a managed root/);
    expect(problem({ key_path: 'tls.key' })).toBe('task 0: key_path must be an absolute, normalised path');
    expect(problem({ common_name: '' })).toBe('task 0: common_name is 1-64 printable ASCII characters');
    expect(problem({ common_name: 'x'.repeat(65) })).toBe('task 0: common_name is 1-64 printable ASCII characters');
    expect(problem({ common_name: 'a\nb' })).toBe('task 0: common_name is 1-64 printable ASCII characters');
    expect(problem({ dns_names: 'node-2' })).toBe(`task 0: dns_names is a list of at most ${MAX_CSR_NAMES} host names`);
    expect(problem({ dns_names: Array.from({ length: MAX_CSR_NAMES + 1 }, (_, i) => `n${i}`) })).toMatch(/dns_names is a list/);
    expect(problem({ dns_names: ['*.site'] })).toBe('task 0: dns_names: "*.site" is not a host name');
    expect(problem({ ip_addresses: undefined })).toBe(`task 0: ip_addresses is a list of at most ${MAX_CSR_NAMES} IP addresses`);
    expect(problem({ ip_addresses: ['node-2'] })).toBe('task 0: ip_addresses: "node-2" is not an IP address');
    expect(problem({ dns_names: [], ip_addresses: [] })).toBe('task 0: a request names at least one host name or IP address');
    expect(problem({ rotate: undefined })).toBe('task 0: rotate is true (make a new key) or false (keep a usable one)');
    expect(problem({ mode: '0644' })).toBe('task 0: a key is always written 0600: mode is not given');
  });
});
