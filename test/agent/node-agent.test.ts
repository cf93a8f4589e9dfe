// The node agent end to end with real processes on this machine (each host's "/" a temp folder): enrolment and
// facts, signed plans reported task by task, refusals with their codes, another host's receipts refused, a
// kill in the middle of a plan, and offline mode. The same paths on booted systemd hosts: node-agent.hosts.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import pkg from '../../package.json';
import { until } from '../support/agent-harness';
import { gatewayCall } from '../support/gateway-client';
import { startArtifactServer, type ArtifactServer } from '../support/artifact-server';
import { hostsHarness, type HostsHarness, type LocalHost, type NodeAgentProcess } from '../support/node-agent-harness';
import { startEtcd } from '../support/services/etcd';
import { openfgaTestServer } from '../support/openfga/openfga-test-server';

const sha = (s: string | Buffer): string => createHash('sha256').update(s).digest('hex');

async function receiptIn(inbox: string, name: string): Promise<any> {
  const file = join(inbox, `${name}.receipt.json`);
  return until(`${name}.receipt.json`, () => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined), 20_000);
}

describe('the node agent on local processes', () => {
  let h: HostsHarness;
  let art: ArtifactServer;
  let alpha: LocalHost;
  let bravo: LocalHost;
  let a: NodeAgentProcess;

  beforeAll(async () => {
    h = await hostsHarness();
    art = await startArtifactServer();
    alpha = await h.addHost('alpha', { offlineAfterS: 5 });
    bravo = await h.addHost('bravo');
    a = alpha.start();
    bravo.start();
    await until(
      'both hosts connected with facts',
      async () => {
        const items = (await h.api('GET', `/api/v1/clusters/${h.clusterId}/hosts`)).body.items as any[];
        return items.length === 2 && items.every((x) => x.state === 'connected' && x.facts) ? items : undefined;
      },
      30_000,
    );
  }, 90_000);
  afterAll(async () => {
    await art?.stop();
    await h?.close();
  });

  test('enrolled hosts turn connected and report their facts, and the hosts cluster is connected', async () => {
    const items = (await h.api('GET', `/api/v1/clusters/${h.clusterId}/hosts`)).body.items as any[];
    for (const host of items) {
      expect(host.agent).toMatchObject({ connected: true, agent_version: pkg.version });
      expect(host.facts).toMatchObject({ architecture: 'amd64', os: { platform: 'linux' } });
      expect(host.facts.memory.total_bytes).toBeGreaterThan(0);
      expect(host.facts.cpu.cores).toBeGreaterThan(0);
      expect(host.facts.kernel).toMatch(/^\d+\.\d+/);
      expect(Array.isArray(host.facts.disks)).toBe(true);
    }
    expect((await h.api('GET', `/api/v1/clusters/${h.clusterId}`)).body.state).toBe('connected');
  });

  test('a signed plan writes a file and fetches an artifact by digest under the managed roots, task by task, each recorded with its sha256', async () => {
    const bin = Buffer.from('#!/bin/sh\necho demo\n');
    const blob = art.add('navin/demo/demo', bin);
    const res = await h.api('POST', `/api/v1/hosts/${alpha.id}/plans`, {
      title: 'demo files',
      tasks: [
        { id: 'conf', kind: 'file.write', path: '/etc/navin/demo/demo.conf', content: 'port=7000\n', mode: '0640' },
        {
          id: 'bin',
          kind: 'artifact.fetch',
          url: blob.url,
          digest: blob.digest,
          path: '/opt/navin/demo/demo',
          mode: '0755',
          ca_pem: art.caPem,
        },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const done = await h.waitCommand(res.body.id, (c) => c.state !== 'queued' && c.state !== 'delivered');
    expect(done.state, JSON.stringify(done)).toBe('succeeded');
    expect(readFileSync(join(alpha.root, 'etc/navin/demo/demo.conf'), 'utf8')).toBe('port=7000\n');
    expect(statSync(join(alpha.root, 'etc/navin/demo/demo.conf')).mode & 0o777).toBe(0o640);
    expect(readFileSync(join(alpha.root, 'opt/navin/demo/demo')).equals(bin)).toBe(true);
    expect(statSync(join(alpha.root, 'opt/navin/demo/demo')).mode & 0o777).toBe(0o755);
    const plan = (await h.api('GET', `/api/v1/commands/${res.body.id}/plan`)).body;
    expect(plan).toMatchObject({ total: 2, succeeded: 2, failed_task: null, title: 'demo files' });
    expect(plan.tasks.map((t: any) => [t.id, t.status])).toEqual([
      ['conf', 'succeeded'],
      ['bin', 'succeeded'],
    ]);
    expect(plan.tasks[0].started_at).toBeTruthy();
    expect(plan.tasks[1].output).toMatchObject({ digest: blob.digest, size: bin.length });
    // The agent reports what it manages with each file's sha256.
    const host = await until('managed files reported', async () => {
      const v = (await h.api('GET', `/api/v1/hosts/${alpha.id}`)).body;
      return v.managed?.files?.['/opt/navin/demo/demo'] ? v : undefined;
    });
    expect(host.managed.files['/etc/navin/demo/demo.conf']).toMatchObject({ sha256: sha('port=7000\n'), command_id: res.body.id });
    expect(host.managed.files['/opt/navin/demo/demo'].sha256).toBe(sha(bin));
  });

  test('an artifact that does not hash to its signed digest stops the plan at that task with digest_mismatch and installs nothing', async () => {
    const served = art.add('navin/demo/other', Buffer.from('not what was signed'));
    const res = await h.api('POST', `/api/v1/hosts/${alpha.id}/plans`, {
      tasks: [
        { id: 'first', kind: 'file.write', path: '/etc/navin/mismatch/first', content: 'one\n' },
        {
          id: 'fetch',
          kind: 'artifact.fetch',
          url: served.url,
          digest: `sha256:${sha('what was signed')}`,
          path: '/opt/navin/mismatch/bin',
          ca_pem: art.caPem,
        },
        { id: 'never', kind: 'file.write', path: '/etc/navin/mismatch/never', content: 'two\n' },
      ],
    });
    const done = await h.waitCommand(res.body.id, (c) => c.state !== 'queued' && c.state !== 'delivered');
    expect(done).toMatchObject({ state: 'failed', code: 'digest_mismatch' });
    const plan = (await h.api('GET', `/api/v1/commands/${res.body.id}/plan`)).body;
    expect(plan.tasks.map((t: any) => t.status)).toEqual(['succeeded', 'failed', 'skipped']);
    expect(plan.failed_task).toBe('fetch');
    expect(readdirSync(join(alpha.root, 'opt/navin/mismatch'))).toEqual([]);
    expect(existsSync(join(alpha.root, 'etc/navin/mismatch/never'))).toBe(false);
  });

  // The agent runs with a dead proxy in its environment (the harness): gRPC and axios must not use it.
  test("check tasks run the service checks: a real etcd passes liveness and its functional test (so does OpenFGA's), a stopped one fails check_failed with the evidence and stops the plan", async () => {
    const [etcd, fga] = await Promise.all([startEtcd(1), openfgaTestServer()]);
    try {
      const port = etcd.members[0]!.clientPort;
      const checks = [
        { id: 'live', kind: 'check', check: { kind: 'etcd.health', params: { port } } },
        { id: 'smoke', kind: 'check', check: { kind: 'etcd.kv', params: { endpoints: etcd.endpoints } } },
        { id: 'fga', kind: 'check', check: { kind: 'openfga.check', params: { url: fga.url } } },
      ];
      const ok = await h.api('POST', `/api/v1/hosts/${alpha.id}/plans`, { tasks: checks });
      expect(ok.status, JSON.stringify(ok.body)).toBe(202);
      const done = await h.waitCommand(ok.body.id, (c) => c.state !== 'queued' && c.state !== 'delivered');
      expect(done.state, JSON.stringify(done.result)).toBe('succeeded');
      const plan = (await h.api('GET', `/api/v1/commands/${ok.body.id}/plan`)).body;
      expect(plan.tasks[0].output.check).toMatchObject({ kind: 'etcd.health', status: 'pass' });
      // The functional test wrote, read back and deleted its own key, clean-up included.
      const smoke = plan.tasks[1].output.check;
      expect(smoke).toMatchObject({ kind: 'etcd.kv', status: 'pass' });
      expect(smoke.steps.length).toBeGreaterThan(1);
      expect(smoke.steps.every((s: any) => s.status === 'pass')).toBe(true);
      expect(plan.tasks[2].output.check).toMatchObject({ kind: 'openfga.check', status: 'pass' });

      await etcd.members[0]!.stop();
      const down = await h.api('POST', `/api/v1/hosts/${alpha.id}/plans`, {
        tasks: [
          { id: 'live', kind: 'check', check: { kind: 'etcd.health', params: { port, timeout_ms: 2000 } } },
          { id: 'after', kind: 'file.write', path: '/etc/navin/checks/after', content: 'x\n' },
        ],
      });
      const failed = await h.waitCommand(down.body.id, (c) => c.state !== 'queued' && c.state !== 'delivered');
      expect(failed).toMatchObject({ state: 'failed', code: 'check_failed' });
      const stopped = (await h.api('GET', `/api/v1/commands/${down.body.id}/plan`)).body;
      expect(stopped.tasks.map((t: any) => t.status)).toEqual(['failed', 'skipped']);
      expect(stopped.tasks[0]).toMatchObject({
        code: 'check_failed',
        output: { check: { status: 'fail', error: { code: 'unreachable' } } },
      });
      expect(existsSync(join(alpha.root, 'etc/navin/checks/after'))).toBe(false);
    } finally {
      await Promise.all([etcd.close(), fga.close()]);
    }
  });

  test('the API refuses a check task whose kind or params the checks table does not know, before signing', async () => {
    const unknown = await h.api('POST', `/api/v1/hosts/${alpha.id}/plans`, {
      tasks: [{ id: 'c', kind: 'check', check: { kind: 'etcd.telepathy', params: {} } }],
    });
    expect(unknown).toMatchObject({ status: 400, body: { error: { code: 'invalid_field', field: 'tasks' } } });
    expect(unknown.body.error.message).toContain('unknown check kind');
    const typo = await h.api('POST', `/api/v1/hosts/${alpha.id}/plans`, {
      tasks: [{ id: 'c', kind: 'check', check: { kind: 'etcd.health', params: { prot: 2379 } } }],
    });
    expect(typo.status).toBe(400);
    expect(typo.body.error.message).toContain('prot is not a param of etcd.health');
  });

  test('the API refuses a plan that writes outside the managed roots or a unit not named navin-*.service', async () => {
    const outside = await h.api('POST', `/api/v1/hosts/${alpha.id}/plans`, {
      tasks: [{ id: 'x', kind: 'file.write', path: '/etc/passwd', content: 'x' }],
    });
    expect(outside).toMatchObject({ status: 400, body: { error: { code: 'invalid_field', field: 'tasks' } } });
    const unit = await h.api('POST', `/api/v1/hosts/${alpha.id}/plans`, {
      tasks: [{ id: 'u', kind: 'systemd.stop', unit: 'ssh.service' }],
    });
    expect(unit.status).toBe(400);
    const own = await h.api('POST', `/api/v1/hosts/${alpha.id}/plans`, {
      tasks: [{ id: 'u', kind: 'systemd.stop', unit: 'navin-node-agent.service' }],
    });
    expect(own.status).toBe(400);
  });

  test('unsigned, tampered, replayed and other-host commands dropped into the inbox are refused with their codes', async () => {
    const first = await h.api('POST', `/api/v1/hosts/${alpha.id}/plans`, {
      tasks: [{ id: 'w', kind: 'file.write', path: '/etc/navin/inbox/ok', content: 'ok\n' }],
    });
    await h.waitCommand(first.body.id, (c) => c.state === 'succeeded');
    const envelope = (await h.api('GET', `/api/v1/commands/${first.body.id}/envelope`)).body;
    // A plan for bravo, fetched from the manager and carried to alpha by hand.
    const forBravo = await h.api('POST', `/api/v1/hosts/${bravo.id}/facts/report`);
    const bravoEnvelope = (await h.api('GET', `/api/v1/commands/${forBravo.body.id}/envelope`)).body;
    const tampered = JSON.parse(JSON.stringify(envelope));
    tampered.payload.command_id = 'tampered-1';
    tampered.payload.args.tasks[0].path = '/etc/navin/inbox/evil';
    const unsigned = { payload: { ...envelope.payload, command_id: 'unsigned-1' } };
    writeFileSync(join(alpha.inbox, 'unsigned.json'), JSON.stringify(unsigned));
    writeFileSync(join(alpha.inbox, 'tampered.json'), JSON.stringify(tampered));
    writeFileSync(join(alpha.inbox, 'replayed.json'), JSON.stringify(envelope));
    writeFileSync(join(alpha.inbox, 'other-host.json'), JSON.stringify(bravoEnvelope));
    expect(await receiptIn(alpha.inbox, 'unsigned')).toMatchObject({ status: 'rejected', code: 'malformed' });
    expect(await receiptIn(alpha.inbox, 'tampered')).toMatchObject({ status: 'rejected', code: 'signature_invalid' });
    expect(await receiptIn(alpha.inbox, 'replayed')).toMatchObject({
      status: 'rejected',
      code: 'nonce_replayed',
      original: { status: 'succeeded' },
    });
    expect(await receiptIn(alpha.inbox, 'other-host')).toMatchObject({ status: 'rejected', code: 'target_mismatch' });
    expect(existsSync(join(alpha.root, 'etc/navin/inbox/evil'))).toBe(false);
    // The replay changed nothing on the manager: the command keeps its original status.
    expect((await h.api('GET', `/api/v1/commands/${first.body.id}`)).body.state).toBe('succeeded');
  });

  test("a receipt or progress report for another host's command is refused 403 and audited, and a host is served only its own commands", async () => {
    const own = await h.api('POST', `/api/v1/hosts/${alpha.id}/facts/report`);
    await h.waitCommand(own.body.id, (c) => c.state === 'succeeded');
    const cert = {
      certPem: readFileSync(join(bravo.identityDir, 'tls.crt'), 'utf8'),
      keyPem: readFileSync(join(bravo.identityDir, 'tls.key'), 'utf8'),
      caPem: readFileSync(join(bravo.identityDir, 'ca.crt'), 'utf8'),
    };
    const url = `https://127.0.0.1:${h.gatewayPort}`;
    const receipt = { command_id: own.body.id, status: 'failed', executed_at: new Date().toISOString(), replica: 'bravo' };
    const refused = await gatewayCall(url, 'POST', '/v1/node-agent/receipts', cert, { receipts: [receipt] });
    expect(refused.status).toBe(403);
    expect(refused.body.accepted).toEqual([]);
    const progress = await gatewayCall(url, 'POST', '/v1/node-agent/progress', cert, {
      command_id: own.body.id,
      total: 1,
      task: { index: 0, id: 'x', kind: 'file.write', status: 'failed' },
    });
    expect(progress.status).toBe(403);
    // A host certificate is not a cluster agent's.
    expect((await gatewayCall(url, 'GET', '/v1/cluster-agent/commands?wait=0', cert)).status).toBe(403);
    expect((await h.api('GET', `/api/v1/commands/${own.body.id}`)).body.state).toBe('succeeded');
    const audit = (await h.api('GET', '/api/v1/audit?limit=200')).body.items as any[];
    const refusals = audit.filter((e) => e.target === own.body.id && String(e.action).startsWith('gateway.'));
    expect(refusals.map((e) => e.action).sort()).toEqual(['gateway.progress_refused', 'gateway.receipt_refused']);
    expect(refusals[0].details).toMatchObject({ host_id: bravo.id, reason: 'other_host' });
    // Bravo's agent never saw alpha's command.
    expect(bravo.lines.some((l) => l.command_id === own.body.id)).toBe(false);
  });

  test('killing the agent in the middle of a plan and restarting it executes no completed task twice', async () => {
    const bin = Buffer.from('slow artifact\n');
    const blob = art.add('navin/demo/slow', bin);
    art.hold();
    const res = await h.api('POST', `/api/v1/hosts/${alpha.id}/plans`, {
      tasks: [
        { id: 'before', kind: 'file.write', path: '/etc/navin/crash/before', content: 'before\n' },
        { id: 'slow', kind: 'artifact.fetch', url: blob.url, digest: blob.digest, path: '/opt/navin/crash/slow', ca_pem: art.caPem },
        { id: 'after', kind: 'file.write', path: '/etc/navin/crash/after', content: 'after\n' },
      ],
    });
    await art.arrived(new URL(blob.url).pathname);
    const inode = statSync(join(alpha.root, 'etc/navin/crash/before')).ino;
    await a.kill('SIGKILL');
    art.release();
    const state = JSON.parse(readFileSync(join(alpha.stateDir, 'state.json'), 'utf8'));
    expect(state.plans[res.body.id].tasks.map((t: any) => t.status)).toEqual(['succeeded', 'running']);
    a = alpha.start();
    const done = await h.waitCommand(res.body.id, (c) => c.state !== 'queued' && c.state !== 'delivered');
    expect(done.state, JSON.stringify(done)).toBe('succeeded');
    const started = (id: string) => alpha.lines.filter((l) => l.event === 'task.started' && l.command_id === res.body.id && l.task === id);
    expect(started('before')).toHaveLength(1);
    expect(started('slow').map((l) => l.resumed)).toEqual([false, true]);
    expect(started('after')).toHaveLength(1);
    expect(statSync(join(alpha.root, 'etc/navin/crash/before')).ino).toBe(inode);
    expect(readFileSync(join(alpha.root, 'opt/navin/crash/slow')).equals(bin)).toBe(true);
    const plan = (await h.api('GET', `/api/v1/commands/${res.body.id}/plan`)).body;
    expect(plan.tasks.map((t: any) => [t.id, t.status, t.resumed])).toEqual([
      ['before', 'succeeded', false],
      ['slow', 'succeeded', true],
      ['after', 'succeeded', false],
    ]);
    expect(art.requests(new URL(blob.url).pathname)).toBe(2);
  }, 60_000);

  test('with the manager stopped, sensitive commands are refused manager_unreachable, read-only ones run, and the receipts reach the manager when it is back', async () => {
    // Two commands the agent cannot fetch: issued while it is down, then carried to its inbox by hand.
    await a.kill('SIGKILL');
    const plan = await h.api('POST', `/api/v1/hosts/${alpha.id}/plans`, {
      tasks: [{ id: 'w', kind: 'file.write', path: '/etc/navin/offline/f', content: 'x\n' }],
    });
    const planEnvelope = (await h.api('GET', `/api/v1/commands/${plan.body.id}/envelope`)).body;
    const facts = await h.api('POST', `/api/v1/hosts/${alpha.id}/facts/report`);
    const factsEnvelope = (await h.api('GET', `/api/v1/commands/${facts.body.id}/envelope`)).body;
    await h.manager.stop();
    a = alpha.start();
    await a.waitFor('offline', undefined, 30_000);
    writeFileSync(join(alpha.inbox, 'offline-plan.json'), JSON.stringify(planEnvelope));
    writeFileSync(join(alpha.inbox, 'offline-facts.json'), JSON.stringify(factsEnvelope));
    expect(await receiptIn(alpha.inbox, 'offline-plan')).toMatchObject({ status: 'rejected', code: 'manager_unreachable' });
    expect(await receiptIn(alpha.inbox, 'offline-facts')).toMatchObject({ status: 'succeeded', result: { reported: false } });
    expect(existsSync(join(alpha.root, 'etc/navin/offline/f'))).toBe(false);

    await h.startManager();
    await h.waitCommand(plan.body.id, (c) => c.state === 'rejected' && c.code === 'manager_unreachable', 40_000);
    await h.waitCommand(facts.body.id, (c) => c.state === 'succeeded', 40_000);
    await a.waitFor('online', undefined, 30_000);
    expect(existsSync(join(alpha.root, 'etc/navin/offline/f'))).toBe(false);
  }, 120_000);
});
