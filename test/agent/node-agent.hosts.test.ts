// The node agent on three booted Debian 12 hosts (systemd as PID 1): the .deb installed with apt-get as a user
// would, hosts enrolled and connected with their facts, a signed plan whose unit systemd runs, refusals with
// their codes, a kill mid-plan that reruns nothing completed, the manager stopped then back, and a certificate
// forced near expiry that the agent renews by itself, staying connected while its old serial is refused.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pkg from '../../package.json';
import { openManager } from '../../main/core/manager';
import { hostUri, NODE_AGENT_PATHS } from '../../main/wire/node-agent';
import { REPO_ROOT } from '../support/cli';
import { gatewayCall } from '../support/gateway-client';
import { until } from '../support/agent-harness';
import { startArtifactServer, type ArtifactServer } from '../support/artifact-server';
import { bootHosts, describeHosts, type HostSuite, type TestHost } from '../support/hosts';
import { hostsHarness, type HostsHarness } from '../support/node-agent-harness';
import { tempDir } from '../support/temp-dir';

const DEB = `navin-node-agent_${pkg.version}_amd64.deb`;
const INBOX = '/var/lib/navin-node-agent/inbox';

async function sh(host: TestHost, script: string, input?: string): Promise<string> {
  const r = await host.exec(['sh', '-c', script], { input, timeoutMs: 120_000 });
  if (r.code !== 0) throw new Error(`${host.name}: ${script} exited ${r.code}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** The agent's JSON log lines from the journal of its unit. */
async function journal(host: TestHost): Promise<Record<string, unknown>[]> {
  const out = (await host.exec(['journalctl', '-u', 'navin-node-agent.service', '-o', 'cat', '--no-pager'])).stdout;
  return out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function inboxReceipt(host: TestHost, name: string): Promise<any> {
  return until(
    `${name}.receipt.json on ${host.name}`,
    async () => {
      const r = await host.exec(['cat', `${INBOX}/${name}.receipt.json`]);
      return r.code === 0 ? JSON.parse(r.stdout) : undefined;
    },
    30_000,
    300,
  );
}

describeHosts('the node agent on booted systemd hosts', () => {
  let suite: HostSuite;
  let hosts: TestHost[];
  let h: HostsHarness;
  let art: ArtifactServer;
  const ids = new Map<string, string>();
  const work = tempDir('navin-hosts-suite-');

  beforeAll(async () => {
    const debDir = join(work.path, 'deb');
    const [booted] = await Promise.all([
      bootHosts(3),
      promisify(execFile)(process.execPath, [join(REPO_ROOT, 'agent/node/build-deb.mjs'), '--out', debDir]),
    ]);
    suite = booted;
    hosts = suite.hosts;
    h = await hostsHarness({ gatewayHost: suite.bridgeAddress });
    art = await startArtifactServer(suite.bridgeAddress);
    await Promise.all(
      hosts.map(async (host, i) => {
        // The third host goes offline on purpose later: a short offline_after_s.
        const { id, identity } = await h.enroll(host.name, host.address, { offlineAfterS: i === 2 ? 10 : 120 });
        ids.set(host.name, id);
        const local = join(work.path, host.name);
        mkdirSync(local, { recursive: true });
        for (const [f, text] of Object.entries(identity.files as Record<string, string>))
          writeFileSync(join(local, f), text, { mode: 0o600 });
        await host.copyIn(join(debDir, DEB), `/root/install/${DEB}`);
        for (const f of Object.keys(identity.files)) await host.copyIn(join(local, f), `/root/install/${f}`);
        // The commands the API gave, as an administrator runs them on the host.
        for (const command of identity.install_commands as string[]) await sh(host, `cd /root/install && ${command}`, 'y\n');
      }),
    );
  }, 600_000);

  afterAll(async () => {
    await art?.stop();
    await h?.close();
    await suite?.close();
    work.remove();
  }, 180_000);

  test('three hosts with the .deb installed by apt-get are enrolled and connected, each with its facts', async () => {
    const items = await until(
      'three connected hosts with facts',
      async () => {
        const list = (await h.api('GET', `/api/v1/clusters/${h.clusterId}/hosts`)).body.items as any[];
        return list.length === 3 && list.every((x) => x.state === 'connected' && x.facts) ? list : undefined;
      },
      60_000,
      500,
    );
    for (const host of hosts) {
      const v = items.find((x) => x.name === host.name)!;
      expect(v.agent.agent_version).toBe(pkg.version);
      expect(v.facts).toMatchObject({
        hostname: host.name,
        architecture: 'amd64',
        os: { platform: 'linux', release: '12' },
        systemd: { version: expect.stringMatching(/^\d{3}$/) },
      });
      expect(['running', 'degraded']).toContain(v.facts.systemd.system_state);
      expect(v.facts.memory.total_bytes).toBeGreaterThan(0);
      expect(v.facts.disks.length).toBeGreaterThan(0);
      // Installed as a package, running as its hardened unit.
      expect((await sh(host, "dpkg-query -W -f '${Status} ${Version}' navin-node-agent")).trim()).toBe(
        `install ok installed ${pkg.version}`,
      );
      const show = await sh(host, 'systemctl show navin-node-agent.service -p ActiveState -p ProtectSystem -p NoNewPrivileges');
      expect(show).toContain('ActiveState=active');
      expect(show).toContain('ProtectSystem=strict');
      expect(show).toContain('NoNewPrivileges=yes');
    }
    // The preflight reads these facts: the blocking host checks pass.
    const run = (await h.api('POST', `/api/v1/clusters/${h.clusterId}/preflight`)).body;
    for (const id of ['hosts.os', 'hosts.architecture', 'hosts.memory', 'hosts.disks', 'hosts.systemd'])
      expect(run.checks.find((c: any) => c.id === id)?.status, id).toBe('pass');
  });

  test('a signed plan writes a file and a unit inside a host, and systemd runs it', async () => {
    const host = hosts[0]!;
    const script = '#!/bin/sh\nwhile true; do date > /var/lib/navin/hello/beat; sleep 1; done\n';
    const unit = [
      '[Unit]',
      'Description=Navin hello',
      '[Service]',
      'ExecStart=/opt/navin/hello/hello.sh',
      'Restart=on-failure',
      '[Install]',
      'WantedBy=multi-user.target',
      '',
    ].join('\n');
    const res = await h.api('POST', `/api/v1/hosts/${ids.get(host.name)}/plans`, {
      title: 'hello service',
      tasks: [
        { id: 'script', kind: 'file.write', path: '/opt/navin/hello/hello.sh', content: script, mode: '0755' },
        { id: 'data', kind: 'file.write', path: '/var/lib/navin/hello/.keep', content: '' },
        { id: 'unit', kind: 'unit.write', unit: 'navin-hello.service', content: unit },
        { id: 'reload', kind: 'systemd.daemon_reload' },
        { id: 'enable', kind: 'systemd.enable', unit: 'navin-hello.service' },
        { id: 'start', kind: 'systemd.start', unit: 'navin-hello.service' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const done = await h.waitCommand(res.body.id, (c) => !['queued', 'delivered'].includes(c.state), 60_000);
    expect(done.state, JSON.stringify(done.result)).toBe('succeeded');
    expect((await host.exec(['systemctl', 'is-active', 'navin-hello.service'])).stdout.trim()).toBe('active');
    expect((await host.exec(['systemctl', 'is-enabled', 'navin-hello.service'])).stdout.trim()).toBe('enabled');
    expect(await sh(host, 'cat /etc/systemd/system/navin-hello.service')).toBe(unit);
    await until('the service writes its beat', async () =>
      (await host.exec(['cat', '/var/lib/navin/hello/beat'])).code === 0 ? true : undefined,
    );
    const plan = (await h.api('GET', `/api/v1/commands/${res.body.id}/plan`)).body;
    expect(plan.tasks.every((t: any) => t.status === 'succeeded')).toBe(true);
    expect(plan.tasks.find((t: any) => t.id === 'start').output).toMatchObject({ ActiveState: 'active' });
    const view = await until('managed unit reported', async () => {
      const v = (await h.api('GET', `/api/v1/hosts/${ids.get(host.name)}`)).body;
      return v.managed?.units?.['navin-hello.service'] ? v : undefined;
    });
    expect(view.managed.units['navin-hello.service'].sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  test("signed starts are not refused by systemd's start rate limit: seven stop/start pairs in a row all succeed", async () => {
    // systemd refuses a sixth start within ten seconds (start-limit-hit) unless its counter is reset.
    const host = hosts[0]!;
    const unit = 'navin-hello.service';
    const tasks = Array.from({ length: 7 }, (_, i) => [
      { id: `stop-${i}`, kind: 'systemd.stop', unit },
      { id: `start-${i}`, kind: 'systemd.start', unit },
    ]).flat();
    const res = await h.api('POST', `/api/v1/hosts/${ids.get(host.name)}/plans`, { title: 'stop and start hello', tasks });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const done = await h.waitCommand(res.body.id, (c) => !['queued', 'delivered'].includes(c.state), 60_000);
    expect(done.state, JSON.stringify(done.result)).toBe('succeeded');
    expect((await host.exec(['systemctl', 'is-active', unit])).stdout.trim()).toBe('active');
  });
  test('unsigned, tampered, replayed and other-host commands dropped into the inbox are refused with their codes', async () => {
    const [host, other] = [hosts[0]!, hosts[1]!];
    const first = await h.api('POST', `/api/v1/hosts/${ids.get(host.name)}/plans`, {
      tasks: [{ id: 'w', kind: 'file.write', path: '/etc/navin/inbox/ok', content: 'ok\n' }],
    });
    await h.waitCommand(first.body.id, (c) => c.state === 'succeeded', 30_000);
    const envelope = (await h.api('GET', `/api/v1/commands/${first.body.id}/envelope`)).body;
    const forOther = await h.api('POST', `/api/v1/hosts/${ids.get(other.name)}/facts/report`);
    const otherEnvelope = (await h.api('GET', `/api/v1/commands/${forOther.body.id}/envelope`)).body;
    const tampered = JSON.parse(JSON.stringify(envelope));
    tampered.payload.command_id = 'tampered-1';
    tampered.payload.args.tasks[0].path = '/etc/navin/inbox/evil';
    const drop = (name: string, doc: unknown) =>
      sh(host, `cat > ${INBOX}/.${name} && mv ${INBOX}/.${name} ${INBOX}/${name}.json`, JSON.stringify(doc));
    await drop('unsigned', { payload: { ...envelope.payload, command_id: 'unsigned-1' } });
    await drop('tampered', tampered);
    await drop('replayed', envelope);
    await drop('other-host', otherEnvelope);
    expect(await inboxReceipt(host, 'unsigned')).toMatchObject({ status: 'rejected', code: 'malformed' });
    expect(await inboxReceipt(host, 'tampered')).toMatchObject({ status: 'rejected', code: 'signature_invalid' });
    expect(await inboxReceipt(host, 'replayed')).toMatchObject({
      status: 'rejected',
      code: 'nonce_replayed',
      original: { status: 'succeeded' },
    });
    expect(await inboxReceipt(host, 'other-host')).toMatchObject({ status: 'rejected', code: 'target_mismatch' });
    expect((await host.exec(['test', '-e', '/etc/navin/inbox/evil'])).code).not.toBe(0);
  });

  test('killing the agent in the middle of a plan: systemd restarts it and no completed task runs twice', async () => {
    const host = hosts[1]!;
    const blob = art.add('navin/demo/slow', Buffer.from('#!/bin/sh\nexit 0\n'));
    const unit = '[Service]\nExecStart=/bin/sleep infinity\n';
    art.hold();
    const res = await h.api('POST', `/api/v1/hosts/${ids.get(host.name)}/plans`, {
      tasks: [
        { id: 'unit', kind: 'unit.write', unit: 'navin-tick.service', content: unit },
        { id: 'reload', kind: 'systemd.daemon_reload' },
        { id: 'restart', kind: 'systemd.restart', unit: 'navin-tick.service' },
        {
          id: 'slow',
          kind: 'artifact.fetch',
          url: blob.url,
          digest: blob.digest,
          path: '/opt/navin/tick/tool',
          ca_pem: art.caPem,
          mode: '0755',
        },
        { id: 'after', kind: 'file.write', path: '/etc/navin/tick/after', content: 'after\n' },
      ],
    });
    await art.arrived(new URL(blob.url).pathname);
    const invocation = (await sh(host, 'systemctl show -p InvocationID --value navin-tick.service')).trim();
    expect(invocation).toMatch(/^[0-9a-f]{32}$/);
    await sh(host, 'systemctl kill --signal=KILL navin-node-agent.service');
    art.release();
    const done = await h.waitCommand(res.body.id, (c) => !['queued', 'delivered'].includes(c.state), 90_000);
    expect(done.state, JSON.stringify(done.result)).toBe('succeeded');
    // The restart ran once: the unit still runs the invocation the first agent started.
    expect((await sh(host, 'systemctl show -p InvocationID --value navin-tick.service')).trim()).toBe(invocation);
    const started = (await journal(host)).filter((l) => l.event === 'task.started' && l.command_id === res.body.id);
    const count = (id: string) => started.filter((l) => l.task === id).length;
    expect([count('unit'), count('reload'), count('restart'), count('slow'), count('after')]).toEqual([1, 1, 1, 2, 1]);
    expect(started.filter((l) => l.task === 'slow').map((l) => l.resumed)).toEqual([false, true]);
    expect((await sh(host, 'systemctl show -p NRestarts --value navin-node-agent.service')).trim()).toBe('1');
    expect(await sh(host, 'cat /etc/navin/tick/after')).toBe('after\n');
  });

  test('with the manager stopped, sensitive commands are refused manager_unreachable and the receipts reach it when it is back', async () => {
    const host = hosts[2]!;
    const id = ids.get(host.name)!;
    await sh(host, 'systemctl stop navin-node-agent.service');
    const plan = await h.api('POST', `/api/v1/hosts/${id}/plans`, {
      tasks: [{ id: 'w', kind: 'file.write', path: '/etc/navin/offline/f', content: 'x\n' }],
    });
    const envelope = (await h.api('GET', `/api/v1/commands/${plan.body.id}/envelope`)).body;
    await h.manager.stop();
    await sh(host, 'systemctl start navin-node-agent.service');
    await until(
      'the agent offline',
      async () => ((await journal(host)).some((l) => l.event === 'offline') ? true : undefined),
      40_000,
      500,
    );
    await sh(host, `cat > ${INBOX}/.p && mv ${INBOX}/.p ${INBOX}/offline-plan.json`, JSON.stringify(envelope));
    expect(await inboxReceipt(host, 'offline-plan')).toMatchObject({ status: 'rejected', code: 'manager_unreachable' });
    expect((await host.exec(['test', '-e', '/etc/navin/offline/f'])).code).not.toBe(0);
    await h.startManager();
    await h.waitCommand(plan.body.id, (c) => c.state === 'rejected' && c.code === 'manager_unreachable', 60_000);
    await until(
      'the agent back online',
      async () => ((await journal(host)).some((l) => l.event === 'online') ? true : undefined),
      40_000,
      500,
    );
  });

  test('a certificate forced near expiry is renewed by the agent itself: it stays connected and its old serial is refused', async () => {
    const host = hosts[0]!;
    const id = ids.get(host.name)!;
    const serialOf = (hex: string): string => hex.toLowerCase().replace(/^0+/, '');
    // A 10-day certificate for this host from the manager's CA: within 14 days of its end, it is due at once.
    const m = openManager({ dataDir: h.dataDir, mode: 'headless' });
    let short: { certPem: string; keyPem: string; serial: string };
    try {
      short = m.ca.issueHostClient(h.clusterId, hostUri(id), 10);
      m.tables.hosts.bindCertificate(short.serial, id);
    } finally {
      m.close();
    }
    const local = join(work.path, 'short-lived');
    mkdirSync(local, { recursive: true });
    writeFileSync(join(local, 'tls.crt'), short.certPem);
    writeFileSync(join(local, 'tls.key'), short.keyPem, { mode: 0o600 });
    await host.copyIn(join(local, 'tls.crt'), '/etc/navin-node-agent/tls.crt');
    await host.copyIn(join(local, 'tls.key'), '/etc/navin-node-agent/tls.key');
    await sh(host, 'chmod 0600 /etc/navin-node-agent/tls.key && systemctl restart navin-node-agent.service');
    const renewed = await until(
      'the agent renewed its short-lived certificate',
      async () =>
        (await journal(host)).find(
          (l) => l.event === 'certificate.renewed' && serialOf(String(l.previous_serial)) === serialOf(short.serial),
        ),
      60_000,
      500,
    );
    // The pair in its identity folder is the renewed one, its key still root's alone.
    const onHost = new X509Certificate(await sh(host, 'cat /etc/navin-node-agent/tls.crt'));
    expect(serialOf(onHost.serialNumber)).toBe(serialOf(String(renewed.serial)));
    expect(onHost.subjectAltName).toBe(`URI:${hostUri(id)}`);
    expect((await sh(host, 'stat -c %a /etc/navin-node-agent/tls.key')).trim()).toBe('600');
    // Still connected: the manager sees the new serial, and a plan runs.
    await until('the host seen with its renewed certificate', async () => {
      const v = (await h.api('GET', `/api/v1/hosts/${id}`)).body;
      return serialOf(v.agent?.certificate_serial ?? '') === serialOf(onHost.serialNumber) ? v : undefined;
    });
    const res = await h.api('POST', `/api/v1/hosts/${id}/plans`, {
      tasks: [{ id: 'w', kind: 'file.write', path: '/etc/navin/renewed/f', content: 'renewed\n' }],
    });
    const done = await h.waitCommand(res.body.id, (c) => !['queued', 'delivered'].includes(c.state), 60_000);
    expect(done.state, JSON.stringify(done.result)).toBe('succeeded');
    // The short-lived certificate is revoked since the new one was used: the gateway refuses it.
    const caPem = readFileSync(join(h.dataDir, 'tls', 'ca.crt'), 'utf8');
    await expect(
      gatewayCall(h.gatewayUrl, 'GET', `${NODE_AGENT_PATHS.commands}?wait=0`, { certPem: short.certPem, keyPem: short.keyPem, caPem }),
    ).rejects.toThrow();
  }, 180_000);
});
