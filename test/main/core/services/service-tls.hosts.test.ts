// Services installed with TLS on booted Debian 12 hosts (asked for under the development profile, which the
// harness's clusters have): each host makes its key and a CSR, the manager signs it with the cluster's service CA,
// and etcd (three members, client and peer TLS with client certificates), NATS and the node exporter serve TLS
// only, every check passing over TLS against that CA. The key stays root's on its host, never in an answer.
import { X509Certificate } from 'node:crypto';
import { request } from 'node:https';
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { describeHosts, type TestHost } from '../../../support/hosts';
import { operate as operateOn, serviceHosts, sh, type ServiceHosts } from '../../../support/service-hosts';

const ETCD = '3.4.23-1';
const NATS = '2.9.10-1';
const NODE_EXPORTER = '1.5.0-1';

describeHosts('services installed with TLS on booted hosts', () => {
  let s: ServiceHosts;
  let single: TestHost;
  let trio: TestHost[];
  let clusterA: string;
  let clusterB: string;

  beforeAll(async () => {
    s = await serviceHosts(
      [1, 3],
      [
        ['etcd', ETCD],
        ['nats', NATS],
        ['node-exporter', NODE_EXPORTER],
      ],
    );
    [single, ...trio] = s.hosts as [TestHost, ...TestHost[]];
    [clusterA, clusterB] = s.clusters as [string, string];
  }, 600_000);

  afterAll(async () => {
    await s?.close();
  }, 180_000);

  const install = (cluster: string, service: string, version: string, hosts: TestHost[]): Promise<any> =>
    operateOn(s.h, 'POST', `/api/v1/clusters/${cluster}/services`, { service, version, hosts: hosts.map((h) => h.name), tls: true });
  const view = async (cluster: string, name: string): Promise<any> =>
    (await s.h.api('GET', `/api/v1/clusters/${cluster}/services/${name}`)).body;

  /** Every check passed, and each check that connects to the service did so over TLS (its handshake in evidence). */
  function expectAllPassOverTls(v: any, hostIds: string[]): void {
    expect(v.state).toBe('running');
    const outcomes = [...hostIds.map((id) => v.checks.liveness[id].outcome), v.checks.readiness.outcome, v.checks.functional.outcome];
    for (const o of outcomes) {
      expect(o.status, JSON.stringify(o)).toBe('pass');
      expect(JSON.stringify(o.evidence), o.kind).toMatch(/"protocol":"TLSv1\.[23]"/);
    }
  }

  /** The phases of an install with TLS: the keys and CSRs on every host first, then the install writing the certificates. */
  function expectCertificatesFirst(op: any, hosts: number): void {
    // On a failure, what the last plan's tasks reported (their checks' evidence) says why.
    const last = op.phases.at(-1)?.plans?.[0]?.tasks?.map((t: any) => [t.id, t.output]);
    expect(op.state, JSON.stringify({ message: op.message, last }).slice(0, 6000)).toBe('succeeded');
    expect(op.phases.map((p: any) => p.name)).toEqual(['certificates', 'install', 'readiness and functional test']);
    expect(op.phases[0].plans).toHaveLength(hosts);
    for (const plan of op.phases[0].plans) expect(plan.tasks[0].output.csr_pem).toMatch(/^-----BEGIN CERTIFICATE REQUEST-----/);
    const written = op.phases[1].plans[0].tasks.find((t: any) => t.id === 'write:tls-cert');
    expect(written.status).toBe('succeeded');
    // Neither the operation nor its plans ever carry a private key.
    expect(JSON.stringify(op)).not.toContain('PRIVATE KEY');
  }

  /** What a plain HTTP request to a port gets: a TLS-only port answers no metrics, no health (or nothing at all). */
  const plainHttp = async (url: string): Promise<string> => {
    const r = await fetch(url, { signal: AbortSignal.timeout(5_000) }).catch((e: Error) => e.message);
    return typeof r === 'string' ? r : `${r.status} ${await r.text()}`;
  };

  /** A GET over HTTPS that trusts `caPem` only. */
  const httpsGet = (url: string, caPem: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const req = request(url, { ca: caPem, timeout: 5_000 }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve(body));
      });
      req.on('error', reject);
      req.end();
    });

  /** The first line a NATS server sends a client that connected in clear: its INFO. */
  const natsInfo = (host: string, port: number): Promise<string> =>
    new Promise((resolve, reject) => {
      const socket = connect({ host, port, timeout: 5_000 });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => {
        text += c;
        if (text.includes('\r\n')) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('error', reject);
      socket.on('timeout', () => reject(new Error('no INFO from the server')));
    });

  async function expectKeyRootOnly(host: TestHost, service: string): Promise<void> {
    expect((await sh(host, `stat -c '%a %U' /etc/navin/${service}/tls/tls.key`)).trim()).toBe('600 root');
    expect((await sh(host, `stat -c '%a' /etc/navin/${service}/tls/tls.crt /etc/navin/${service}/tls/ca.crt`)).trim()).toBe('644\n644');
  }

  test('etcd on three hosts: client and peer TLS with client certificates, live, ready and functional over TLS', async () => {
    const op = await install(clusterB, 'etcd', ETCD, trio);
    expectCertificatesFirst(op, 3);
    const v = await view(clusterB, 'etcd');
    expectAllPassOverTls(
      v,
      trio.map((h) => s.ids.get(h.name)!),
    );
    expect(v.checks.readiness.outcome.evidence.members).toHaveLength(3);
    const [first] = trio as [TestHost];
    await expectKeyRootOnly(first, 'etcd');
    // The member's certificate carries its own name and address, and is signed by the cluster's service CA.
    const cert = new X509Certificate(await sh(first, 'cat /etc/navin/etcd/tls/tls.crt'));
    const ca = new X509Certificate(await sh(first, 'cat /etc/navin/etcd/tls/ca.crt'));
    expect(cert.subjectAltName).toContain(`DNS:${first.name}`);
    expect(cert.subjectAltName).toContain(`IP Address:${first.address}`);
    expect(cert.verify(ca.publicKey)).toBe(true);
    // One CA for the cluster: every member is given the same.
    expect(new X509Certificate(await sh(trio[1]!, 'cat /etc/navin/etcd/tls/ca.crt')).fingerprint256).toBe(ca.fingerprint256);
    // etcdctl with the member's certificate sees the three members; without one, etcd refuses.
    const tls = '--cacert=/etc/navin/etcd/tls/ca.crt --cert=/etc/navin/etcd/tls/tls.crt --key=/etc/navin/etcd/tls/tls.key';
    const list = await sh(first, `/opt/navin/etcd/${ETCD}/etcdctl --endpoints=https://${first.address}:2379 ${tls} member list`);
    for (const h of trio) {
      expect(list).toContain(h.name);
      expect(list).toContain(`https://${h.address}:2380`);
    }
    const anonymous = await first.exec([
      `/opt/navin/etcd/${ETCD}/etcdctl`,
      `--endpoints=https://${first.address}:2379`,
      '--cacert=/etc/navin/etcd/tls/ca.crt',
      '--dial-timeout=3s',
      '--command-timeout=5s',
      'endpoint',
      'health',
    ]);
    expect(anonymous.code).not.toBe(0);
    // Plaintext is not served: an http request to the client port gets no health.
    expect(await plainHttp(`http://${first.address}:2379/health`)).not.toMatch(/"health"/);
    // The component sheet's Security tab says TLS is on for the client and peer ports.
    const sheet = (await s.h.api('GET', `/api/v1/clusters/${clusterB}/services/etcd/sheet`)).body;
    expect(sheet.security.endpoints.map((e: any) => [e.name, e.tls_enabled])).toEqual([
      ['client', true],
      ['peer', true],
    ]);
  });

  test('NATS (clients and monitoring over TLS) and the node exporter (metrics over HTTPS) install with TLS and pass every check', async () => {
    const nats = await install(clusterA, 'nats', NATS, [single]);
    expectCertificatesFirst(nats, 1);
    expectAllPassOverTls(await view(clusterA, 'nats'), [s.ids.get(single.name)!]);
    await expectKeyRootOnly(single, 'nats');
    // A client that does not speak TLS is told the server requires it.
    expect(await natsInfo(single.address, 4222)).toMatch(/"tls_required":true/);

    const ne = await install(clusterA, 'node-exporter', NODE_EXPORTER, [single]);
    expectCertificatesFirst(ne, 1);
    expectAllPassOverTls(await view(clusterA, 'node-exporter'), [s.ids.get(single.name)!]);
    const ca = await sh(single, 'cat /etc/navin/node-exporter/tls/ca.crt');
    expect(await httpsGet(`https://${single.address}:9100/metrics`, ca)).toContain('node_cpu_seconds_total');
    expect(await plainHttp(`http://${single.address}:9100/metrics`)).not.toContain('node_cpu_seconds_total');
    // An uninstall removes the key and the certificates with the other files.
    const gone = await operateOn(s.h, 'POST', `/api/v1/clusters/${clusterA}/services/node-exporter/actions`, { action: 'uninstall' });
    expect(gone.state, JSON.stringify(gone.message)).toBe('succeeded');
    expect((await single.exec(['test', '-e', '/etc/navin/node-exporter/tls/tls.key'])).code).not.toBe(0);
  });
});
