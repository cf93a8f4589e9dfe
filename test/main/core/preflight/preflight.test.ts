// The preflight checks against real servers: a DNS server (dnsmasq) on loopback for forward and reverse DNS,
// TLS endpoints with valid, expired, untrusted and nearly expired certificates, the Kubernetes API test server
// for the API, nodes and capacity, and Debian's docker-registry (Distribution 2.8, TLS) as the mirror.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importRbacYaml } from '../../../../main/core/kubernetes/import-rbac';
import { setDnsServers } from '../../../../main/core/checks/dns-settings';
import { setEndpointTrust } from '../../../../main/core/profiles/endpoint-trust';
import type { CheckResult } from '../../../../main/contract/check-types';
import type { PreflightRun } from '../../../../main/core/preflight/preflight';
import type { ManagedComponentSpec } from '../../../../main/wire/protocol';
import { testManager, type TestManager } from '../../../support/manager';
import { startListeners, type RunningListeners } from '../../../support/listeners';
import { startDnsServer, type DnsServer } from '../../../support/dns-server';
import { closedPort, startTlsEndpoint, type TestEndpoint } from '../../../support/tls-endpoints';
import { kubeTarget, type KubeTarget } from '../../../support/kube-api/target';
import { absentDigest, pushTestImage, registryAvailable, startRegistry, type TestRegistry } from '../../../support/registry';
import { describeNeeding } from '../../../support/needs';

const NS = 'navin-platform';
const ABSENT = absentDigest('opa nowhere');

describeNeeding('preflight checks', [registryAvailable()], () => {
  /** An image pushed to the registry at start. */
  let PRESENT: string;
  let t: TestManager;
  let listeners: RunningListeners;
  let dns: DnsServer;
  let kube: KubeTarget;
  let registry: TestRegistry;
  const endpoints: Partial<Record<'valid' | 'expired' | 'untrusted' | 'expiring', TestEndpoint>> = {};

  const check = (run: PreflightRun, id: string): CheckResult => {
    const c = run.checks.find((x) => x.id === id);
    if (!c) throw new Error(`no check ${id} in ${run.checks.map((x) => x.id).join(', ')}`);
    return c;
  };
  const run = (clusterId: string): Promise<PreflightRun> => t.manager.preflight.run(clusterId, { trigger: 'on_demand', actor: 'test' });
  const registered = async (name: string, profile = 'development', extra: Record<string, unknown> = {}): Promise<string> => {
    const id = t.manager.clusters.create({ name, profile, ...extra }, 'test').id;
    await t.manager.registration.register(id, kube.kubeconfigFor(await kube.createToken(NS, 'navin-import')), NS, 'test');
    return id;
  };

  beforeAll(async () => {
    t = testManager();
    const kinds = ['valid', 'expired', 'untrusted', 'expiring'] as const;
    const started = await Promise.all([
      startListeners(t),
      // Private addresses no test connects to: the DNS checks only ask the resolver.
      startDnsServer({
        records: { 'api.edge.navin.test': '10.250.0.10', 'api.moved.navin.test': '10.250.0.11' },
        ptr: { '10.250.0.10': 'api.edge.navin.test' },
      }),
      kubeTarget(),
      startRegistry(),
      ...kinds.map((kind) => startTlsEndpoint({ kind, serverName: '127.0.0.1' })),
    ]);
    [listeners, dns, kube, registry] = started as unknown as [RunningListeners, DnsServer, KubeTarget, TestRegistry];
    PRESENT = await pushTestImage(registry, 'navin/opa');
    kinds.forEach((k, i) => (endpoints[k] = started[4 + i] as TestEndpoint));
    await kube.apply(importRbacYaml(NS, 'edge'));
    setDnsServers(t.manager.store, t.manager.tables, dns.servers, 'test');
    setEndpointTrust(t.manager.store, t.manager.tables, endpoints.valid!.caPem, 'test');
  });
  afterAll(async () => {
    await Promise.all([listeners?.close(), dns?.stop(), kube?.close(), registry?.stop(), ...Object.values(endpoints).map((e) => e.stop())]);
    t?.close();
  });

  it('forward and reverse DNS pass when the FQDN and the address resolve to each other', async () => {
    const r = await run(await registered('edge', 'development', { fqdn: 'api.edge.navin.test', address: '10.250.0.10' }));
    expect(check(r, 'dns.forward')).toMatchObject({ status: 'pass', evidence: { expected: '10.250.0.10' } });
    expect(check(r, 'dns.reverse'), JSON.stringify(check(r, 'dns.reverse'))).toMatchObject({ status: 'pass' });
  });

  it('a DNS mismatch fails under standard and only warns under development', async () => {
    const moved = { fqdn: 'api.moved.navin.test', address: '10.250.0.10' };
    const std = await run(await registered('moved-std', 'standard', moved));
    expect(check(std, 'dns.forward')).toMatchObject({ status: 'fail', critical: true });
    expect(check(std, 'dns.forward').reason?.en).toBe('api.moved.navin.test resolves to 10.250.0.11, not 10.250.0.10');
    expect(std.outcome).toBe('fail');
    const dev = await run(await registered('moved-dev', 'development', { fqdn: 'api.moved.navin.test', address: '10.250.0.11' }));
    expect(check(dev, 'dns.forward').status).toBe('pass');
    // 10.250.0.11 has no PTR record.
    expect(check(dev, 'dns.reverse')).toMatchObject({ status: 'warn', critical: false });
    expect(check(dev, 'dns.reverse').reason?.en).toMatch(/^10\.250\.0\.11 has no PTR record/);
  });

  it('an unknown name fails forward DNS with the resolver error', async () => {
    const r = await run(await registered('ghost', 'standard', { fqdn: 'api.ghost.navin.test', address: '10.250.0.10' }));
    expect(check(r, 'dns.forward').reason?.en).toMatch(/^api\.ghost\.navin\.test does not resolve: .*(ENOTFOUND|NXDOMAIN|not found)/i);
  });

  it('TLS endpoints: expired, untrusted or refused fail; under 14 days warns; valid passes', async () => {
    const id = await registered('tls');
    const refused = await closedPort();
    const spec: ManagedComponentSpec = {
      component: 'nats',
      version: '2.10.0',
      endpoints: [
        { name: 'valid', url: `tls://127.0.0.1:${endpoints.valid!.port}` },
        { name: 'expired', url: `https://127.0.0.1:${endpoints.expired!.port}` },
        { name: 'untrusted', url: `tls://127.0.0.1:${endpoints.untrusted!.port}` },
        { name: 'expiring', url: `tls://127.0.0.1:${endpoints.expiring!.port}` },
        { name: 'refused', url: `tls://127.0.0.1:${refused}` },
        { name: 'plain', url: 'http://127.0.0.1:8222' },
      ],
    };
    t.manager.commands.issue(id, 'managedcomponent.apply', { name: 'nats', spec }, 'test');
    const r = await run(id);
    expect(check(r, 'tls.endpoint.nats.valid').status).toBe('pass');
    expect(check(r, 'tls.endpoint.nats.expired')).toMatchObject({ status: 'fail', evidence: { probe: { verdict: 'expired' } } });
    expect(check(r, 'tls.endpoint.nats.untrusted')).toMatchObject({ status: 'fail', evidence: { probe: { verdict: 'untrusted' } } });
    expect(check(r, 'tls.endpoint.nats.refused')).toMatchObject({ status: 'fail', evidence: { probe: { verdict: 'unreachable' } } });
    const expiring = check(r, 'tls.endpoint.nats.expiring');
    expect(expiring).toMatchObject({ status: 'warn', critical: false });
    expect(expiring.reason?.en).toMatch(/^the certificate expires in \d+ days$/);
    expect(r.checks.some((c) => c.id === 'tls.endpoint.nats.plain')).toBe(false);
    // The gateway and the console CA are checked with real material too.
    expect(check(r, 'tls.gateway').status).toBe('pass');
    expect(check(r, 'tls.console_ca').status).toBe('pass');
  });

  it('reads the API, the nodes and the capacity live; a component larger than the cluster fails capacity', async () => {
    const id = await registered('capacity');
    const ok = await run(id);
    expect(check(ok, 'kubernetes.api')).toMatchObject({ status: 'pass' });
    expect(check(ok, 'kubernetes.nodes').status).toBe('pass');
    expect(check(ok, 'capacity').status).toBe('pass');
    t.manager.commands.issue(
      id,
      'managedcomponent.apply',
      { name: 'etcd', spec: { component: 'etcd', version: '3.5.21', replicas: 3, resources: { cpu: '500', memory: '1Gi' } } },
      'test',
    );
    const big = await run(id);
    expect(check(big, 'capacity')).toMatchObject({ status: 'fail', critical: true });
    expect(check(big, 'capacity').reason?.en).toMatch(/^not enough allocatable capacity: CPU 1500 > \d+ cores/);
  });

  it('a cluster with neither a registered kubeconfig nor an agent report fails the API check', async () => {
    const id = t.manager.clusters.create({ name: 'nowhere' }, 'test').id;
    const r = await run(id);
    expect(check(r, 'kubernetes.api')).toMatchObject({ status: 'fail', critical: true });
    expect(check(r, 'agent.version').status).toBe('warn');
  });

  it('looks up the artifacts of what is installed in the mirror, by digest', async () => {
    t.manager.reports.setMirror({ url: registry.url, ca_pem: registry.caPem }, 'test');
    const host = new URL(registry.url).host;
    const id = await registered('mirror');
    t.manager.commands.issue(
      id,
      'managedcomponent.apply',
      { name: 'opa', spec: { component: 'opa', version: '1.0.0', artifacts: [{ name: 'opa', image: `${host}/navin/opa@${PRESENT}` }] } },
      'test',
    );
    t.manager.commands.issue(
      id,
      'managedcomponent.apply',
      {
        name: 'opa-next',
        spec: { component: 'opa', version: '1.0.1', artifacts: [{ name: 'opa', image: `${host}/navin/opa@${ABSENT}` }] },
      },
      'test',
    );
    // In the mirror by digest, but named with another registry: the node would pull it from there.
    t.manager.commands.issue(
      id,
      'managedcomponent.apply',
      {
        name: 'opa-elsewhere',
        spec: { component: 'opa', version: '1.0.0', artifacts: [{ name: 'opa', image: `docker.io/navin/opa@${PRESENT}` }] },
      },
      'test',
    );
    const r = await run(id);
    expect(check(r, 'mirror.artifacts.opa').status).toBe('pass');
    expect(check(r, 'mirror.artifacts.opa-next')).toMatchObject({ status: 'fail' });
    expect(check(r, 'mirror.artifacts.opa-next').reason?.en).toContain('(404)');
    expect(check(r, 'mirror.artifacts.opa-elsewhere')).toMatchObject({ status: 'warn' });
    expect(check(r, 'mirror.artifacts.opa-elsewhere').reason?.en).toBe(
      `in the mirror, but named with another registry than ${host}: docker.io/navin/opa@${PRESENT}`,
    );
    // Where the profile allows the mirror only, that is a failure.
    t.manager.clusters.setProfile(id, 'banking-secure', 'test');
    expect(check(await run(id), 'mirror.artifacts.opa-elsewhere').status).toBe('fail');
  });

  it('records each run, audits it, and serves the latest through the API', async () => {
    const id = await registered('api');
    const op = await t.login('olga', 'operator');
    const posted = await t.call('POST', `/api/v1/clusters/${id}/preflight`, {}, op);
    expect(posted.status).toBe(201);
    const latest = await t.call('GET', `/api/v1/clusters/${id}/preflight`, undefined, op);
    expect(latest.body).toMatchObject({ id: (posted.body as PreflightRun).id, trigger: 'on_demand', run_by: 'olga' });
    expect(t.manager.store.audit.list({ cluster_id: id }).some((a) => a.action === 'preflight.run')).toBe(true);
    expect(
      (await t.call('GET', `/api/v1/clusters/${t.manager.clusters.create({ name: 'never' }, 'test').id}/preflight`, undefined, op)).status,
    ).toBe(404);
  });
});
