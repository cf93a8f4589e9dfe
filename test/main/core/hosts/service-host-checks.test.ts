// The catalog's preflight of a service on its hosts, judged on reported facts: busy ports, kernel settings below
// the catalog's minimum, missing tools and short capacity each fail naming the host and what was seen; an older
// agent that reports none of it warns instead of passing.
import { describe, expect, it } from 'vitest';
import { loadBuiltinCatalog } from '../../../../main/core/catalog/catalog-builtin';
import { bytesOf, millicoresOf, serviceHostChecks } from '../../../../main/core/hosts/service-host-checks';
import type { HostFacts } from '../../../../main/wire/node-agent';
import { hostFacts } from '../../../support/host-facts';

const load = loadBuiltinCatalog();
if (!load.ok) throw new Error('the built-in catalog is invalid');
const etcd = load.catalog.service('etcd')!;
const at = '2026-12-04T12:00:00.000Z';

const facts = (over: Partial<HostFacts> = {}): HostFacts => hostFacts(over, at);

const byId = (checks: ReturnType<typeof serviceHostChecks>) => Object.fromEntries(checks.map((c) => [c.id.split('.').pop(), c]));

describe('service host checks', () => {
  it('pass on a host that meets every requirement', () => {
    const checks = serviceHostChecks(etcd, [{ name: 'a', facts: facts() }], { portsHeldByService: false }, at);
    expect(checks.map((c) => [c.id, c.status])).toEqual([
      ['service.etcd.ports', 'pass'],
      ['service.etcd.kernel', 'pass'],
      ['service.etcd.tools', 'pass'],
      ['service.etcd.capacity', 'pass'],
    ]);
  });

  it('fail naming the host and what was seen', () => {
    const bad = facts({
      listening_ports: [2379],
      sysctl: { 'fs.file-max': '1024' },
      tools: { systemctl: true, mv: true, rm: true, chown: false },
      memory: { total_bytes: 256 * 1024 ** 2, available_bytes: 0 },
    });
    const c = byId(
      serviceHostChecks(
        etcd,
        [
          { name: 'a', facts: facts() },
          { name: 'b', facts: bad },
        ],
        { portsHeldByService: false },
        at,
      ),
    );
    expect(c.ports!.status).toBe('fail');
    expect(c.ports!.reason!.en).toBe('Something already listens on: b (client 2379).');
    expect(c.kernel!.reason!.en).toContain('b (fs.file-max = 1024 < 65536)');
    expect(c.tools!.reason!.en).toContain('b (chown)');
    expect(c.capacity!.reason!.en).toContain('b (memory 268435456 B < 512Mi)');
    expect(c.capacity!.reason!.fr).toContain('Insuffisant pour une instance');
    // The service's own ports are taken while it runs: a configuration does not fail on them.
    expect(byId(serviceHostChecks(etcd, [{ name: 'b', facts: bad }], { portsHeldByService: true }, at)).ports!.status).toBe('pass');
  });

  it('warn when an older agent does not report ports, kernel settings or tools; fail with no facts or no host', () => {
    const old = facts({ listening_ports: undefined, sysctl: undefined, tools: undefined });
    const c = byId(serviceHostChecks(etcd, [{ name: 'a', facts: old }], { portsHeldByService: false }, at));
    expect([c.ports!.status, c.kernel!.status, c.tools!.status]).toEqual(['warn', 'warn', 'warn']);
    expect(byId(serviceHostChecks(etcd, [{ name: 'a', facts: null }], { portsHeldByService: false }, at)).capacity!.status).toBe('fail');
    expect(serviceHostChecks(etcd, [], { portsHeldByService: false }, at).every((x) => x.status === 'fail')).toBe(true);
  });

  it('reads Kubernetes quantities', () => {
    expect([bytesOf('512Mi'), bytesOf('2Gi'), millicoresOf('500m'), millicoresOf('1.5')]).toEqual([
      512 * 1024 ** 2,
      2 * 1024 ** 3,
      500,
      1500,
    ]);
  });
});
