// Each profile's rules, evaluated on real state: the console and gateway listeners really handshaken, the
// accounts as they are, a syslog target really probed, endpoints really served with good and bad certificates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as OTPAuth from 'otpauth';
import { importRbacYaml } from '../../../../main/core/kubernetes/import-rbac';
import { Profiles, type ProfileEvaluation } from '../../../../main/core/profiles/profiles';
import { setSyslogTarget, clearSyslogTarget } from '../../../../main/core/audit/syslog-settings';
import { setEndpointTrust } from '../../../../main/core/profiles/endpoint-trust';
import type { ManagedComponentSpec } from '../../../../main/wire/protocol';
import { testManager, type TestManager } from '../../../support/manager';
import { startListeners, type RunningListeners } from '../../../support/listeners';
import { closedPort, startPlainTcp, startTlsEndpoint, type TestEndpoint } from '../../../support/tls-endpoints';
import { startSyslogListener, type SyslogListener } from '../../../support/syslog-listener';
import { kubeTarget, type KubeTarget } from '../../../support/kube-api/target';
import { absentDigest, pushTestImage, startRegistry } from '../../../support/registry';

const NS = 'navin-platform';

describe('profile rules on real state', () => {
  let t: TestManager;
  let listeners: RunningListeners;
  let valid: TestEndpoint;
  let expired: TestEndpoint;
  let kube: KubeTarget;
  let adaId: string;

  const cluster = (name: string, profile: string): string => t.manager.clusters.create({ name, profile }, 'test').id;
  const evaluate = (id: string): Promise<ProfileEvaluation> => t.manager.profiles.evaluate(id);
  const rule = (e: ProfileEvaluation, id: string) => {
    const r = e.rules.find((x) => x.id === `profile.${id}`);
    if (!r) throw new Error(`no rule ${id} in ${e.rules.map((x) => x.id).join(', ')}`);
    return r;
  };
  const install = (clusterId: string, name: string, spec: ManagedComponentSpec): void => {
    t.manager.commands.issue(clusterId, 'managedcomponent.apply', { name, spec }, 'test');
  };
  const enrol = async (userId: string): Promise<void> => {
    const e = await t.manager.accounts.startMfaEnrolment(userId, 'test');
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(e.secret) }).generate({ timestamp: t.manager.clock.now().getTime() });
    t.manager.accounts.confirmMfaEnrolment(userId, code, 'test');
  };

  beforeAll(async () => {
    t = testManager();
    [listeners, valid, expired, kube] = await Promise.all([
      startListeners(t),
      startTlsEndpoint({ kind: 'valid', serverName: '127.0.0.1' }),
      startTlsEndpoint({ kind: 'expired', serverName: '127.0.0.1' }),
      kubeTarget(),
    ]);
    adaId = (await t.manager.accounts.addUser('ada', 'admin', 'correct horse battery', 'test')).id;
    setEndpointTrust(t.manager.store, t.manager.tables, valid.caPem, 'test');
    await kube.apply(importRbacYaml(NS, 'edge'));
  });
  afterAll(async () => {
    await Promise.all([listeners?.close(), valid?.stop(), expired?.stop(), kube?.close()]);
    t?.close();
  });

  it('development needs only a valid catalog: a cluster with nothing to check is compliant', async () => {
    const e = await evaluate(cluster('dev', 'development'));
    expect(e.status).toBe('compliant');
    expect(e.rules.map((r) => r.id)).toEqual(['profile.catalog_valid']);
  });

  it('an invalid component in the desired state fails the catalog rule', async () => {
    const id = cluster('dev-bad', 'development');
    t.manager.tables.commands.setDesiredState(id, 1, { broken: { component: 'mysql', version: '8' } }, t.manager.clock.now().toISOString());
    const e = await evaluate(id);
    expect(e.status).toBe('blocked');
    expect(rule(e, 'catalog_valid').reason?.en).toMatch(/broken: spec.component must be one of/);
  });

  it('a local admin without TOTP blocks standard; once every admin enrolled, standard is compliant', async () => {
    const id = cluster('std', 'standard');
    const before = await evaluate(id);
    expect(before.status).toBe('blocked');
    expect(rule(before, 'mfa_admin_roles')).toMatchObject({ status: 'fail', critical: true });
    expect(rule(before, 'mfa_admin_roles').reason?.en).toContain('ada');
    // The other rules of standard hold on this manager: a real TLS console, a gateway refusing certificate-less clients.
    expect(rule(before, 'console_tls').status).toBe('pass');
    expect(rule(before, 'agent_client_certificates').status).toBe('pass');
    // No endpoint bound to this cluster's components: the rule says there is nothing to evaluate, never a pass.
    expect(rule(before, 'service_tls')).toMatchObject({ status: 'warn', critical: false });
    expect(rule(before, 'service_tls').reason?.en).toMatch(/^no service endpoint to evaluate/);
    await enrol(adaId);
    const after = await evaluate(id);
    expect(after.rules.filter((r) => r.status === 'fail')).toEqual([]);
    expect(after.status).toBe('compliant');
  });

  it('console TLS fails when the console listener is plain TCP, and the gateway rule fails without a gateway', async () => {
    const id = cluster('std-nolisten', 'standard');
    const plain = await startPlainTcp();
    const saved = { ...t.manager.listeners };
    try {
      t.manager.listeners.console = { host: plain.host, port: plain.port, serverName: '127.0.0.1' };
      t.manager.listeners.gateway = undefined;
      const e = await evaluate(id);
      expect(rule(e, 'console_tls').status).toBe('fail');
      expect(rule(e, 'agent_client_certificates')).toMatchObject({
        status: 'fail',
        reason: { en: 'no agent gateway runs in this manager' },
      });
      // A "gateway" that serves clients without a certificate (here the console listener) fails the rule.
      t.manager.listeners.gateway = { ...saved.console!, serverName: '127.0.0.1' };
      const open = rule(await evaluate(id), 'agent_client_certificates');
      expect(open.status).toBe('fail');
      expect(open.reason?.en).toMatch(/^the gateway answered HTTP \d{3} to a client with no certificate$/);
    } finally {
      t.manager.listeners.console = saved.console;
      t.manager.listeners.gateway = saved.gateway;
      await plain.stop();
    }
  });

  it('service TLS: a plain http endpoint or an expired certificate fails it, a trusted TLS endpoint passes', async () => {
    const id = cluster('std-endpoints', 'standard');
    install(id, 'opa', { component: 'opa', version: '1.0.0', endpoints: [{ name: 'api', url: `https://127.0.0.1:${valid.port}` }] });
    expect(rule(await evaluate(id), 'service_tls').status).toBe('pass');
    install(id, 'nats', {
      component: 'nats',
      version: '2.10.0',
      endpoints: [
        { name: 'monitor', url: 'http://127.0.0.1:8222' },
        { name: 'client', url: `tls://127.0.0.1:${expired.port}` },
      ],
    });
    const r = rule(await evaluate(id), 'service_tls');
    expect(r.status).toBe('fail');
    expect(r.reason?.en).toContain('nats/monitor http://127.0.0.1:8222 (http:// is not TLS)');
    expect(r.reason?.en).toMatch(/nats\/client tls:\/\/127\.0\.0\.1:\d+ \(.*expired/i);
    expect(r.reason?.en).not.toContain('opa/api');
  });

  it('an unreachable syslog blocks banking-secure; a live syslog listener meets the rule', async () => {
    const id = cluster('bank', 'banking-secure');
    setSyslogTarget(t.manager.store, t.manager.tables, { host: '127.0.0.1', port: await closedPort(), transport: 'tcp' }, 'test');
    const down = await evaluate(id);
    expect(down.status).toBe('blocked');
    expect(rule(down, 'syslog_remote_audit').status).toBe('fail');
    expect(rule(down, 'syslog_remote_audit').reason?.en).toMatch(/ECONNREFUSED/);
    let syslog: SyslogListener | undefined;
    try {
      syslog = await startSyslogListener('tcp');
      setSyslogTarget(t.manager.store, t.manager.tables, { host: '127.0.0.1', port: syslog.port, transport: 'tcp' }, 'test');
      const up = await evaluate(id);
      expect(rule(up, 'syslog_remote_audit').status).toBe('pass');
      // The probe is a real RFC 5424 message the listener received.
      expect((await syslog.waitFor(1))[0]).toMatch(/^<\d+>1 \S+ \S+ navin-manager /);
    } finally {
      clearSyslogTarget(t.manager.store, t.manager.tables, 'test');
      await syslog?.stop();
    }
  });

  it('banking-secure also wants the mirror only, no sandbox service and a second admin to approve', async () => {
    const id = cluster('bank-2', 'banking-secure');
    install(id, 'scratch', { component: 'opa', version: '1.0.0', sandbox: true });
    const e = await evaluate(id);
    expect(e.four_eyes).toBe(true);
    expect(e.four_eyes_actions).toEqual(expect.arrayContaining(['stop', 'restart', 'uninstall', 'upgrade', 'rollback', 'configuration']));
    expect(rule(e, 'mirror_only').reason?.en).toBe('no internal mirror is configured (Settings, mirror)');
    expect(rule(e, 'no_sandbox')).toMatchObject({ status: 'fail', reason: { en: 'sandbox services present: scratch' } });
    expect(rule(e, 'four_eyes').status).toBe('fail');
    // With the mirror set and every image named from it, the mirror-only rule holds.
    const registry = await startRegistry();
    try {
      const opa = await pushTestImage(registry, 'navin/opa');
      t.manager.reports.setMirror({ url: registry.url, ca_pem: registry.caPem }, 'test');
      install(id, 'scratch', {
        component: 'opa',
        version: '1.0.0',
        sandbox: true,
        artifacts: [{ name: 'opa', image: `${registry.host}/navin/opa@${opa}` }],
      });
      expect(rule(await evaluate(id), 'mirror_only').status).toBe('pass');
      install(id, 'other', {
        component: 'nats',
        version: '2.10.0',
        artifacts: [{ name: 'nats', image: `docker.io/library/nats@${absentDigest('nats')}` }],
      });
      expect(rule(await evaluate(id), 'mirror_only').reason?.en).toBe(
        `images not pulled from the mirror: docker.io/library/nats@${absentDigest('nats')}`,
      );
      t.manager.commands.issue(id, 'managedcomponent.delete', { name: 'other' }, 'test');
    } finally {
      await registry.stop();
    }
    t.manager.tables.reports.setMirror({ url: null, ca_pem: null });
    const bob = await t.manager.accounts.addUser('bob', 'admin', 'correct horse battery', 'test');
    await enrol(bob.id);
    install(id, 'scratch', { component: 'opa', version: '1.0.0' });
    const after = await evaluate(id);
    expect(rule(after, 'four_eyes').status).toBe('pass');
    expect(rule(after, 'no_sandbox').status).toBe('pass');
    expect(rule(after, 'mfa_local_admins').status).toBe('pass');
  });

  it('air-gapped refuses a connection bound outside private networks', async () => {
    const id = cluster('isolated', 'air-gapped');
    install(id, 'opa', { component: 'opa', version: '1.0.0', endpoints: [{ name: 'api', url: `https://127.0.0.1:${valid.port}` }] });
    expect(rule(await evaluate(id), 'private_egress').status).toBe('pass');
    // 192.0.2.0/24 is TEST-NET-1: a public, documentation-only address nobody routes.
    install(id, 'nats', { component: 'nats', version: '2.10.0', endpoints: [{ name: 'leaf', url: 'tls://192.0.2.10:7422' }] });
    const r = rule(await evaluate(id), 'private_egress');
    expect(r.status).toBe('fail');
    expect(r.reason?.en).toContain('endpoint nats/leaf 192.0.2.10');
  });

  it("hybrid checks TLS to the customer's Kubernetes API with its registered CA", async () => {
    const id = cluster('hybrid', 'hybrid');
    await t.manager.registration.register(id, kube.kubeconfigFor(await kube.createToken(NS, 'navin-import')), NS, 'test');
    const e = await evaluate(id);
    const r = rule(e, 'customer_connections_tls');
    expect(r.status).toBe('pass');
    expect(JSON.stringify(r.evidence)).toContain('kubernetes-api');
    // The customer's SIEM is their infrastructure too: plain TCP syslog fails the rule, RFC 5425 TLS meets it.
    const siem = await startSyslogListener('tls');
    try {
      setSyslogTarget(t.manager.store, t.manager.tables, { host: '127.0.0.1', port: siem.port, transport: 'tcp' }, 'test');
      expect(rule(await evaluate(id), 'customer_connections_tls').reason?.en).toBe(
        `syslog tcp://127.0.0.1:${siem.port} is not TLS (use the tls transport, RFC 5425)`,
      );
      setSyslogTarget(
        t.manager.store,
        t.manager.tables,
        { host: '127.0.0.1', port: siem.port, transport: 'tls', ca_pem: siem.caPem },
        'test',
      );
      expect(rule(await evaluate(id), 'customer_connections_tls').status).toBe('pass');
    } finally {
      clearSyslogTarget(t.manager.store, t.manager.tables, 'test');
      await siem.stop();
    }
  });

  it('a syslog target that takes the probe but not the audit log (the forwarder failing) blocks banking-secure', async () => {
    const id = cluster('bank-forwarder', 'banking-secure');
    const siem = await startSyslogListener('tcp');
    const m = t.manager;
    const failing = {
      target: `tcp://127.0.0.1:${siem.port}`,
      running: true,
      forwarded_seq: 10,
      pending: 12,
      last_success_at: null,
      last_error: { code: 'ECONNRESET', message: 'the receiver closed the connection', at: m.clock.now().toISOString() },
      consecutive_failures: 3,
      retry_in_ms: 4000,
    };
    const profiles = new Profiles({
      tables: m.tables,
      clock: m.clock,
      registration: m.registration,
      accounts: m.accounts,
      listeners: m.listeners,
      caPem: m.ca.certPem,
      mode: 'headless',
      syslogStatus: () => failing,
    });
    try {
      setSyslogTarget(m.store, m.tables, { host: '127.0.0.1', port: siem.port, transport: 'tcp' }, 'test');
      const r = (await profiles.evaluate(id)).rules.find((x) => x.id === 'profile.syslog_remote_audit')!;
      expect(r.status).toBe('fail');
      expect(r.reason?.en).toBe('the audit forwarder cannot deliver (12 rows waiting): the receiver closed the connection');
      const healthy = new Profiles({
        tables: m.tables,
        clock: m.clock,
        registration: m.registration,
        accounts: m.accounts,
        listeners: m.listeners,
        caPem: m.ca.certPem,
        mode: 'headless',
        syslogStatus: () => ({ ...failing, consecutive_failures: 0, last_error: null, pending: 0 }),
      });
      expect((await healthy.evaluate(id)).rules.find((x) => x.id === 'profile.syslog_remote_audit')!.status).toBe('pass');
    } finally {
      clearSyslogTarget(m.store, m.tables, 'test');
      await siem.stop();
    }
  });
  it('an install is judged on the cluster as it will be: a plain-http endpoint it brings is refused with profile_blocked', async () => {
    const id = cluster('std-next', 'standard');
    expect((await evaluate(id)).status).toBe('compliant');
    const olga = await t.manager.accounts.addUser('olga', 'operator', 'correct horse battery', 'test');
    const plain = t.manager.lifecycle.run(
      id,
      {
        kind: 'apply',
        name: 'opa',
        spec: { component: 'opa', version: '1.0.0', endpoints: [{ name: 'api', url: 'http://127.0.0.1:8181' }] },
      },
      olga,
    );
    await expect(plain).rejects.toMatchObject({
      code: 'profile_blocked',
      details: { failing: [expect.objectContaining({ id: 'profile.service_tls' })] },
    });
    // The same install with a TLS endpoint passes the profile and goes on to its preflight (which fails here:
    // the cluster was never registered), so the refusal above was the profile's, judged on the new spec.
    const tls = t.manager.lifecycle.run(
      id,
      {
        kind: 'apply',
        name: 'opa',
        spec: { component: 'opa', version: '1.0.0', endpoints: [{ name: 'api', url: `https://127.0.0.1:${valid.port}` }] },
      },
      olga,
    );
    await expect(tls).rejects.toMatchObject({ code: 'preflight_failed' });
    expect(t.manager.commands.list(id)).toEqual([]);
  });
});
