// The TLS rules on a hosts cluster judged on what the node agent's tls.handshake really saw: the shipped catalog's
// endpoints, the plan an agent is sent (checked as the manager checks plans), and the verdict over handshakes
// with real listeners on loopback — trusted, expiring, expired, untrusted, plaintext, no TLS files — plus the
// observer run end to end with an agent that executes each plan's check on a host whose /etc is a temp folder.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../../../agent/checks';
import { loadBuiltinCatalog } from '../../../../main/core/catalog/catalog-builtin';
import type { Catalog } from '../../../../main/core/catalog/catalog';
import { checkedPlan } from '../../../../main/core/hosts/host-plan-checks';
import {
  HANDSHAKE_TASK,
  handshakePlan,
  hostEndpoints,
  judgeHostEndpoints,
  outcomeOf,
  serviceTlsFiles,
  type EndpointObservation,
  type HostEndpoint,
} from '../../../../main/core/profiles/host-tls-endpoints';
import { hostTlsObserver } from '../../../../main/core/profiles/host-tls-observer';
import type { PlanArgs } from '../../../../main/wire/plan';
import type { CheckOutcome } from '../../../../main/wire/service-checks';
import { startPlainTcp, startTlsEndpoint, testCas, type TestEndpoint } from '../../../support/tls-endpoints';
import { tempDir } from '../../../support/temp-dir';
import { issueServiceCert } from '../../../support/service-tls';

const load = loadBuiltinCatalog();
const catalog = (load as { catalog: Catalog }).catalog;
const HOSTS: Record<string, { name: string; address: string }> = {
  h1: { name: 'node-1', address: '10.0.0.1' },
  h2: { name: 'node-2', address: '10.0.0.2' },
};
const AT = '2026-12-06T00:00:00.000Z';

describe('the endpoints of a hosts cluster', () => {
  it('are every TLS port of every installed service on each of its hosts, NATS client and routes read after their INFO', () => {
    expect(load.ok).toBe(true);
    const eps = hostEndpoints(
      [
        { service: 'etcd', hosts: ['h1', 'h2'] },
        { service: 'nats', hosts: ['h2'] },
        { service: 'gone', hosts: ['h1'] },
        { service: 'opa', hosts: ['h-removed'] },
      ],
      (id) => HOSTS[id],
      (s) => catalog.service(s),
      true,
    );
    expect(eps.map((e) => `${e.service}/${e.port_name}@${e.host_name} ${e.address}:${e.port}${e.starttls ? ' starttls' : ''}`)).toEqual([
      'etcd/client@node-1 10.0.0.1:2379',
      'etcd/peer@node-1 10.0.0.1:2380',
      'etcd/client@node-2 10.0.0.2:2379',
      'etcd/peer@node-2 10.0.0.2:2380',
      'nats/client@node-2 10.0.0.2:4222 starttls',
      'nats/cluster@node-2 10.0.0.2:6222 starttls',
      'nats/monitor@node-2 10.0.0.2:8222',
    ]);
    expect(
      hostEndpoints(
        [],
        (id) => HOSTS[id],
        (s) => catalog.service(s),
        true,
      ),
    ).toEqual([]);
  });

  it('each is handshaken by a plan of one tls.handshake check that the manager accepts to sign', () => {
    const [etcd] = hostEndpoints(
      [{ service: 'etcd', hosts: ['h1'] }],
      (id) => HOSTS[id],
      (s) => catalog.service(s),
      true,
    );
    const plan = handshakePlan(etcd!, 5000);
    expect(() => checkedPlan(plan)).not.toThrow();
    expect(plan.tasks).toEqual([
      expect.objectContaining({
        id: HANDSHAKE_TASK,
        kind: 'check',
        check: {
          kind: 'tls.handshake',
          params: { host: '10.0.0.1', port: 2379, ...serviceTlsFiles('etcd'), timeout_ms: 5000 },
        },
      }),
    ]);
    expect(serviceTlsFiles('etcd')).toEqual({
      ca_file: '/etc/navin/etcd/tls/ca.crt',
      cert_file: '/etc/navin/etcd/tls/tls.crt',
      key_file: '/etc/navin/etcd/tls/tls.key',
    });
  });
});

describe('the verdict over real handshakes', () => {
  const dir = tempDir('navin-host-tls-');
  const caFile = join(dir.path, 'ca.pem');
  const live: Record<'valid' | 'expiring' | 'expired' | 'untrusted', TestEndpoint> = {} as never;
  let plain: Awaited<ReturnType<typeof startPlainTcp>>;

  beforeAll(async () => {
    writeFileSync(caFile, testCas().trusted.certPem);
    for (const kind of ['valid', 'expiring', 'expired', 'untrusted'] as const)
      live[kind] = await startTlsEndpoint({ kind, serverName: '127.0.0.1' });
    plain = await startPlainTcp();
  });
  afterAll(async () => {
    for (const e of Object.values(live)) await e.stop();
    await plain.stop();
    dir.remove();
  });

  const endpoint = (service: string, port: number, host = 'node-1'): HostEndpoint => ({
    service,
    port_name: 'client',
    port,
    host_id: host,
    host_name: host,
    address: '127.0.0.1',
  });
  /** What the agent's check answers to the plan's params, the service's files read from this test's CA file. */
  const observe = async (e: HostEndpoint, files: 'installed' | 'absent' = 'installed'): Promise<EndpointObservation> => {
    const params = (handshakePlan(e, 3000).tasks[0] as { check: { params: Record<string, unknown> } }).check.params;
    const outcome = await runCheck(
      'tls.handshake',
      files === 'installed' ? { ...params, ca_file: caFile, cert_file: undefined, key_file: undefined } : params,
    );
    // As the agent reports it: the check's outcome is the task's output, whether it passed or failed.
    return {
      endpoint: e,
      outcome: outcomeOf({ tasks: [{ id: HANDSHAKE_TASK, kind: 'check', index: 0, status: 'failed', output: { check: outcome } }] }),
    };
  };
  type Endpoint = {
    service: string;
    target: string;
    verdict: string;
    status: string;
    subject: string | null;
    serial: string | null;
    days_left: number | null;
  };
  const listed = (r: { evidence: Record<string, unknown> }): Endpoint[] => r.evidence.endpoints as Endpoint[];

  it('a trusted certificate passes with its subject, issuer, serial, expiry and TLS version as evidence', async () => {
    const r = judgeHostEndpoints('service_tls', [await observe(endpoint('etcd', live.valid.port))], AT);
    expect(r).toMatchObject({ id: 'profile.service_tls', status: 'pass', reason: null });
    expect(listed(r)).toEqual([
      expect.objectContaining({
        service: 'etcd',
        host: 'node-1',
        target: `127.0.0.1:${live.valid.port}`,
        verdict: 'ok',
        status: 'pass',
        protocol: 'TLSv1.3',
        subject: 'CN=127.0.0.1',
        issuer: 'CN=Navin Test CA',
        serial: expect.stringMatching(/^[0-9A-F]+$/),
        not_after: expect.any(String),
        days_left: 364,
      }),
    ]);
  });

  it('a plaintext endpoint fails naming its service and host:port; expired and untrusted fail too', async () => {
    const obs = [
      await observe(endpoint('etcd', live.valid.port)),
      await observe(endpoint('nats', plain.port, 'node-2')),
      await observe(endpoint('opa', live.expired.port)),
      await observe(endpoint('openfga', live.untrusted.port)),
    ];
    const r = judgeHostEndpoints('service_tls', obs, AT);
    expect(r.status).toBe('fail');
    expect(r.critical).toBe(true);
    expect(r.reason?.en).toMatch(
      new RegExp(`^not TLS or not trusted: nats client on node-2 127\\.0\\.0\\.1:${plain.port} \\(not_tls: .*plaintext`),
    );
    expect(r.reason?.en).toMatch(new RegExp(`opa client on node-1 127\\.0\\.0\\.1:${live.expired.port} \\(expired: `));
    expect(r.reason?.en).toMatch(new RegExp(`openfga client on node-1 127\\.0\\.0\\.1:${live.untrusted.port} \\(untrusted: `));
    expect(r.reason?.en).not.toContain('etcd');
    expect(r.reason?.fr).toMatch(/^pas en TLS ou non approuvé : nats client on node-2/);
    expect(listed(r).map((e) => `${e.verdict}/${e.status}`)).toEqual(['ok/pass', 'not_tls/fail', 'expired/fail', 'untrusted/fail']);
  });

  it('a certificate within 14 days of expiry warns with its days left', async () => {
    const r = judgeHostEndpoints('endpoint_tls', [await observe(endpoint('nats', live.expiring.port))], AT);
    expect(r).toMatchObject({ id: 'profile.endpoint_tls', status: 'warn', critical: false });
    expect(r.reason?.en).toMatch(
      /^TLS needs attention or was not observed: nats client on node-1 .*\(expiring: the certificate expires in 5 days/,
    );
    expect(listed(r)[0]).toMatchObject({ verdict: 'expiring', status: 'warn', days_left: 5 });
  });

  it('a host holding no TLS files of the service (installed without TLS) fails naming the endpoint', async () => {
    const r = judgeHostEndpoints('service_tls', [await observe(endpoint('etcd', plain.port), 'absent')], AT);
    expect(r.status).toBe('fail');
    expect(r.reason?.en).toMatch(
      new RegExp(
        `etcd client on node-1 127\\.0\\.0\\.1:${plain.port} \\(no_tls_files: no TLS files of etcd on the host \\(cannot read (ca|cert|key)_file /etc/navin/etcd/tls/`,
      ),
    );
  });

  it("without the service's files, a bare handshake from the host names a plaintext port as such; a TLS one stays no_tls_files", async () => {
    const bare = async (port: number): Promise<CheckOutcome> => {
      const plan = handshakePlan(endpoint('nats', port), 3000, true);
      const params = (plan.tasks[0] as { check: { params: Record<string, unknown> } }).check.params;
      expect(params).toMatchObject({ ca_file: '/etc/navin-node-agent/ca.crt' });
      expect(params).not.toHaveProperty('cert_file');
      expect(() => checkedPlan(plan)).not.toThrow();
      // The agent's CA file, here this test's: the bare handshake only tells TLS from plaintext.
      return runCheck('tls.handshake', { ...params, ca_file: caFile });
    };
    const plainObs = { ...(await observe(endpoint('nats', plain.port), 'absent')), bare: await bare(plain.port) };
    const tlsObs = { ...(await observe(endpoint('opa', live.untrusted.port), 'absent')), bare: await bare(live.untrusted.port) };
    const r = judgeHostEndpoints('service_tls', [plainObs, tlsObs], AT);
    expect(r.status).toBe('fail');
    expect(listed(r).map((e) => `${e.service}/${e.verdict}/${e.status}`)).toEqual(['nats/not_tls/fail', 'opa/no_tls_files/fail']);
    expect(r.reason?.en).toMatch(
      new RegExp(
        `nats client on node-1 127\\.0\\.0\\.1:${plain.port} \\(not_tls: no TLS files of nats on the host, and .*a plaintext endpoint\\)`,
      ),
    );
  });

  it('nothing to evaluate, or an endpoint not observed, warns and says so: never a pass', () => {
    const none = judgeHostEndpoints('service_tls', [], AT);
    expect(none).toMatchObject({ status: 'warn', critical: false, evidence: { endpoints: [], evaluated: 0 } });
    expect(none.reason?.en).toBe('no service endpoint to evaluate: no service that serves TLS is installed on this cluster');
    const silent = judgeHostEndpoints(
      'service_tls',
      [{ endpoint: endpoint('etcd', 2379), outcome: null, missing: 'no answer from the agent of node-1 within 20 s' }],
      AT,
    );
    expect(silent.status).toBe('warn');
    expect(silent.reason?.en).toContain(
      'etcd client on node-1 127.0.0.1:2379 (not_observed: no answer from the agent of node-1 within 20 s)',
    );
  });

  it('the observer has each host handshake with its endpoints and reads the answers of the plans', async () => {
    // A "host" whose /etc is a folder of this test: the agent runs each plan's check for real, as a node agent does.
    const root = tempDir('navin-host-root-');
    mkdirSync(join(root.path, 'etc/navin/nats/tls'), { recursive: true });
    writeFileSync(join(root.path, 'etc/navin/nats/tls/ca.crt'), testCas().trusted.certPem);
    const own = issueServiceCert('nats.node-1', 90);
    writeFileSync(join(root.path, 'etc/navin/nats/tls/tls.crt'), own.certPem);
    writeFileSync(join(root.path, 'etc/navin/nats/tls/tls.key'), own.keyPem);
    // openfga was installed without TLS: none of its files, only the agent's own CA.
    mkdirSync(join(root.path, 'etc/navin-node-agent'));
    writeFileSync(join(root.path, 'etc/navin-node-agent/ca.crt'), testCas().other.certPem);
    const commands = new Map<string, { state: string; code: string | null; result: unknown }>();
    const onHost = (p: unknown): unknown => (typeof p === 'string' && p.startsWith('/etc/') ? join(root.path, p) : p);
    // The catalog's ports mapped to this test's listeners; nats' route port (6222) gets no answer.
    const ports: Record<number, number> = { 4222: live.valid.port, 8222: live.expiring.port, 8080: plain.port, 8081: plain.port };
    try {
      const observe = hostTlsObserver({
        installed: () => [
          { service: 'nats', hosts: ['h1'] },
          { service: 'opa', hosts: ['h2'] },
          { service: 'openfga', hosts: ['h1'] },
        ],
        host: (id) => ({ ...HOSTS[id]!, address: '127.0.0.1' }),
        descriptor: (s) => catalog.service(s),
        issuePlan(hostId, args: PlanArgs) {
          if (hostId === 'h2') throw new Error('host h2 was removed');
          const id = `c${commands.size}`;
          const task = args.tasks[0] as { check: { kind: string; params: Record<string, unknown> } };
          const params = Object.fromEntries(Object.entries(task.check.params).map(([k, v]) => [k, onHost(v)]));
          const port = ports[params.port as number];
          commands.set(id, { state: 'delivered', code: null, result: null });
          if (port)
            void runCheck(task.check.kind, { ...params, port, starttls: undefined }).then((outcome: CheckOutcome) =>
              commands.set(id, {
                state: outcome.status === 'pass' ? 'succeeded' : 'failed',
                code: outcome.status === 'pass' ? null : 'check_failed',
                result: { tasks: [{ id: HANDSHAKE_TASK, kind: 'check', index: 0, status: 'succeeded', output: { check: outcome } }] },
              }),
            );
          return { id };
        },
        async waitEnded(ids, timeoutMs) {
          const end = Date.now() + timeoutMs;
          while (ids.some((i) => commands.get(i)?.state === 'delivered') && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
        },
        command: (id) => commands.get(id),
        waitMs: 1500,
      });
      const r = judgeHostEndpoints('service_tls', await observe('any', true), AT);
      expect(listed(r).map((e) => `${e.service}/${e.verdict}/${e.status}`)).toEqual([
        'nats/ok/pass',
        // The route port's agent never answered: not observed.
        'nats/not_observed/warn',
        'nats/expiring/warn',
        'opa/not_observed/warn',
        'openfga/not_tls/fail',
        'openfga/not_tls/fail',
      ]);
      expect(r.status).toBe('fail');
      expect(r.reason?.en).toMatch(
        /^not TLS or not trusted: openfga http on node-1 127\.0\.0\.1:\d+ \(not_tls: no TLS files of openfga on the host, and .*plaintext endpoint\); openfga grpc on node-1/,
      );
      expect(listed(r)[1]).toMatchObject({ message: 'no answer from the agent of node-1 within 2 s' });
      expect(listed(r)[3]).toMatchObject({ message: 'no plan could be sent to node-2: host h2 was removed' });
    } finally {
      root.remove();
    }
  });
});
