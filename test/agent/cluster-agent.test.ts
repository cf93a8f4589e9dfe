// The cluster agent end to end, with real processes against the Kubernetes API test server: the manager and its
// gateway, two agent replicas, signed commands, leader failover, refusals with their codes, and offline mode.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { openManager } from '../../main/core/manager';
import { buildCommand, createSigner, signDocument } from '../../main/wire/envelope';
import { nodeEd25519 } from '../../main/wire/ed25519-node';
import { AGENT, agentInventoryReported, harness, NS, until, type AgentProcess, type Harness } from '../support/agent-harness';

const SPEC = { component: 'opa', version: '1.4.2' };

/** Signs with the manager's own active key, by opening its store beside the running process. */
function withManagerSigner<T>(h: Harness, fn: (sign: (payload: any) => any, tenant: string) => T): T {
  const m = openManager({ dataDir: h.dataDir, mode: 'headless' });
  try {
    const signer = m.keyring.active();
    return fn((p) => signDocument(p, signer), m.tables.clusters.get(h.clusterId)!.tenant);
  } finally {
    m.close();
  }
}

function desiredState(h: Harness, sign: (p: any) => any, tenant: string, components: Record<string, unknown>, generation: number) {
  return sign({
    type: 'desired-state',
    v: 1,
    target: h.clusterId,
    tenant,
    namespace: NS,
    generation,
    components,
    issued_at: new Date().toISOString(),
  });
}

describe('the cluster agent with two replicas', () => {
  let h: Harness;
  let agents: AgentProcess[];
  beforeAll(async () => {
    h = await harness();
    agents = [h.startAgent('agent-a'), h.startAgent('agent-b')];
    await until(
      'a connected agent',
      () => h.api('GET', `/api/v1/clusters/${h.clusterId}/agent`).then((r) => (r.body.connected ? r.body : undefined)),
      40_000,
    );
    await agentInventoryReported(h);
  }, 90_000);
  afterAll(() => h?.close());

  test('an applied component appears as a ManagedComponent, its receipt reaches the console API, and only one replica acts', async () => {
    const res = await h.api('POST', `/api/v1/clusters/${h.clusterId}/components`, { name: 'policy', spec: SPEC });
    expect(res.status).toBe(202);
    const done = await h.waitCommand(res.body.id, (c) => c.state === 'succeeded');
    expect(done.receipts[0]).toMatchObject({ status: 'succeeded' });
    const mc = (await h.components()).get('policy');
    expect(mc.spec).toEqual(SPEC);
    // The agent reports what stands in the cluster: the console shows it beside the desired state.
    const side = await until(
      'observed policy',
      async () => {
        const r = (await h.api('GET', `/api/v1/clusters/${h.clusterId}/components`)).body;
        return r.observed?.policy ? r : undefined;
      },
      15_000,
    ).catch((e) => {
      throw new Error(
        `${e}\n${agents
          .flatMap((a) => a.logs())
          .filter((l) => String(l.event).startsWith('inventory'))
          .map((l) => JSON.stringify(l))
          .join('\n')}`,
      );
    });
    expect(side.desired.policy).toEqual(SPEC);
    expect(side.observed.policy.spec).toEqual(SPEC);
    const executed = agents.map((a) => a.logs().filter((l) => l.event === 'command.executed' && l.command_id === res.body.id).length);
    expect(executed.sort()).toEqual([0, 1]);
    const status = (await h.api('GET', `/api/v1/clusters/${h.clusterId}/agent`)).body;
    expect(['agent-a', 'agent-b']).toContain(status.leader_replica);
    expect((await h.api('GET', `/api/v1/clusters`)).body.items[0].state).toBe('connected');
  });

  test('a component changed or deleted by hand is restored within seconds', async () => {
    const api = h.admin.makeApiClient(CustomObjectsApi);
    const base = { group: 'platform.navin.ai', version: 'v1alpha1', namespace: NS, plural: 'managedcomponents' };
    await api.deleteNamespacedCustomObject({ ...base, name: 'policy' });
    await until('policy restored', async () => ((await h.components()).has('policy') ? true : undefined), 20_000);
    const mc = (await h.components()).get('policy');
    await api.replaceNamespacedCustomObject({
      ...base,
      name: 'policy',
      body: { ...mc, spec: { component: 'opa', version: '0.0.1-tampered' } },
    });
    await until(
      'policy spec restored',
      async () => ((await h.components()).get('policy')?.spec.version === SPEC.version ? true : undefined),
      20_000,
    );
  });

  test('delete removes the component', async () => {
    const res = await h.api('DELETE', `/api/v1/clusters/${h.clusterId}/components/policy`);
    await h.waitCommand(res.body.id, (c) => c.state === 'succeeded');
    await until('policy gone', async () => (!(await h.components()).has('policy') ? true : undefined), 20_000);
  });

  test('replay, expired, not yet valid, wrong target, wrong tenant, unknown key and bad signature are each refused with their code and change nothing', async () => {
    const inbox = join(h.dir, 'inbox-agent-a');
    const inboxB = join(h.dir, 'inbox-agent-b');
    const now = Date.now();
    const cases = withManagerSigner(h, (sign, tenant) => {
      const apply = (name: string, over: Record<string, unknown> = {}, at = new Date(now)) => {
        const ds = desiredState(h, sign, tenant, { [name]: SPEC }, 1000 + name.length);
        return {
          ...buildCommand({
            tenant,
            target: h.clusterId,
            op: 'managedcomponent.apply',
            args: { name, spec: SPEC, desired_state: ds },
            now: at,
            validitySeconds: 60,
          }),
          ...over,
        };
      };
      const stranger = createSigner(nodeEd25519, nodeEd25519.generateSecretKey());
      const valid = sign(apply('replayed'));
      const tampered = sign(apply('never-bad-signature'));
      tampered.payload.args.name = 'never-bad-signature-x';
      return {
        valid,
        expired: sign(apply('never-expired', {}, new Date(now - 3600_000))),
        not_yet_valid: sign(apply('never-not-yet-valid', {}, new Date(now + 3600_000))),
        target_mismatch: sign(apply('never-target', { target: 'another-cluster' })),
        tenant_mismatch: sign(apply('never-tenant', { tenant: 'another-tenant' })),
        key_unknown: signDocument(apply('never-key'), stranger),
        signature_invalid: tampered,
      };
    });
    const drop = (name: string, doc: unknown) => {
      writeFileSync(join(inbox, `${name}.json`), JSON.stringify(doc));
      writeFileSync(join(inboxB, `${name}.json`), JSON.stringify(doc));
    };
    const receiptOf = (name: string) =>
      until(
        `receipt ${name}`,
        () => {
          for (const d of [inbox, inboxB]) {
            const f = join(d, `${name}.receipt.json`);
            if (existsSync(f)) return JSON.parse(readFileSync(f, 'utf8'));
          }
          return undefined;
        },
        20_000,
      );

    drop('first', cases.valid);
    expect(await receiptOf('first')).toMatchObject({ status: 'succeeded' });
    drop('again', cases.valid);
    const replay = await receiptOf('again');
    expect(replay).toMatchObject({ status: 'rejected', code: 'nonce_replayed', original: { status: 'succeeded' } });
    for (const code of ['expired', 'not_yet_valid', 'target_mismatch', 'tenant_mismatch', 'key_unknown', 'signature_invalid'] as const) {
      drop(code, cases[code]);
      expect(await receiptOf(code)).toMatchObject({ status: 'rejected', code });
    }
    const names = [...(await h.components()).keys()];
    expect(names.filter((n) => n.startsWith('never'))).toEqual([]);
  });

  test('an agent whose signed config was modified refuses to start', () => {
    const dir = join(h.dir, 'identity-modified');
    spawnSync('cp', ['-r', h.identityDir, dir]);
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    config.payload.gateway_url = 'https://attacker.example:8462';
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
    const r = spawnSync(process.execPath, [AGENT, '--identity-dir', dir, '--kubeconfig', h.agentKubeconfig], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/"code":"config_invalid"/);
    expect(r.stdout).toMatch(/signature_invalid/);
    copyFileSync(join(h.identityDir, 'config.json'), join(dir, 'config.json'));
  });
});

describe('leader failover', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  }, 60_000);
  afterAll(() => h?.close());

  test('a leader killed after running a command and before its receipt: the other replica takes over, the command is redelivered and answered nonce_replayed, the manager keeps the original status', async () => {
    const a = h.startAgent('agent-a', { NAVIN_AGENT_FAILPOINT: 'after-execute' });
    await a.waitFor('leader.acquired', undefined, 30_000);
    const b = h.startAgent('agent-b');
    await b.waitFor('started');
    const res = await h.api('POST', `/api/v1/clusters/${h.clusterId}/components`, { name: 'ha-test', spec: SPEC });
    expect(await a.exited).toBe(137);
    await b.waitFor('leader.acquired', undefined, 40_000);
    const done = await h.waitCommand(res.body.id, (c) => c.state !== 'queued' && c.state !== 'delivered', 60_000);
    expect(done.state).toBe('succeeded');
    expect(done.result).toMatchObject({ action: 'created' });
    expect(done.deliveries).toBeGreaterThanOrEqual(2);
    expect(done.receipts[0].code).toBe('nonce_replayed');
    const executions = [...a.logs(), ...b.logs()].filter((l) => l.event === 'command.executed' && l.command_id === res.body.id);
    expect(executions).toHaveLength(1);
    expect((await h.components()).get('ha-test')?.spec).toEqual(SPEC);
  }, 120_000);
});

describe('offline', () => {
  let h: Harness;
  beforeAll(async () => {
    // The default server name (the gateway host, an IP) must work without Node's DEP0123 (an IP as TLS ServerName).
    h = await harness({ offlineAfterS: 5, defaultServerName: true });
  }, 60_000);
  afterAll(() => h?.close());

  test('with the manager stopped the agent keeps the desired state, refuses sensitive inbox commands, serves read-only ones, and sends queued receipts when the manager returns', async () => {
    const first = h.startAgent('agent-a');
    await first.waitFor('leader.acquired');
    // A standby replica is silent towards the gateway while the leader is connected: past offline_after_s it says
    // `standby`, never `offline`. Stopped before the leader is, so the leadership stays with agent-a.
    const standby = h.startAgent('agent-b');
    await standby.waitFor('standby', undefined, 20_000);
    expect(standby.logs().filter((l) => l.event === 'offline')).toEqual([]);
    await standby.kill('SIGKILL');
    // An install is preflighted: the cluster (never registered by kubeconfig here) is judged on its agent's inventory.
    await agentInventoryReported(h);
    const applied = await h.api('POST', `/api/v1/clusters/${h.clusterId}/components`, { name: 'kept', spec: SPEC });
    expect(applied.status, JSON.stringify(applied.body)).toBe(202);
    await h.waitCommand(applied.body.id, (c) => c.state === 'succeeded');
    // Two commands the agent cannot fetch: issued while it is down, then carried to its inbox by hand.
    await first.kill('SIGKILL');
    const del = await h.api('DELETE', `/api/v1/clusters/${h.clusterId}/components/kept`);
    const delEnvelope = (await h.api('GET', `/api/v1/commands/${del.body.id}/envelope`)).body;
    const inv = await h.api('POST', `/api/v1/clusters/${h.clusterId}/inventory/report`);
    const invEnvelope = (await h.api('GET', `/api/v1/commands/${inv.body.id}/envelope`)).body;
    await h.manager.stop();
    const agent = h.startAgent('agent-a');
    await agent.waitFor('leader.acquired', undefined, 30_000);
    await agent.waitFor('offline', undefined, 30_000);

    await h.admin.makeApiClient(CustomObjectsApi).deleteNamespacedCustomObject({
      group: 'platform.navin.ai',
      version: 'v1alpha1',
      namespace: NS,
      plural: 'managedcomponents',
      name: 'kept',
    });
    await until('kept restored offline', async () => ((await h.components()).has('kept') ? true : undefined), 20_000);

    const inbox = join(h.dir, 'inbox-agent-a');
    writeFileSync(join(inbox, 'delete-kept.json'), JSON.stringify(delEnvelope));
    writeFileSync(join(inbox, 'inventory.json'), JSON.stringify(invEnvelope));
    const delReceipt = await until('delete receipt', () =>
      existsSync(join(inbox, 'delete-kept.receipt.json'))
        ? JSON.parse(readFileSync(join(inbox, 'delete-kept.receipt.json'), 'utf8'))
        : undefined,
    );
    expect(delReceipt).toMatchObject({ status: 'rejected', code: 'manager_unreachable' });
    const invReceipt = await until('inventory receipt', () =>
      existsSync(join(inbox, 'inventory.receipt.json'))
        ? JSON.parse(readFileSync(join(inbox, 'inventory.receipt.json'), 'utf8'))
        : undefined,
    );
    expect(invReceipt).toMatchObject({ status: 'succeeded', result: { nodes: expect.any(Number) } });
    expect((await h.components()).has('kept')).toBe(true);

    await h.startManager();
    await h.waitCommand(del.body.id, (c) => c.state === 'rejected' && c.code === 'manager_unreachable', 40_000);
    await h.waitCommand(inv.body.id, (c) => c.state === 'succeeded', 40_000);
    await agent.waitFor('online');
    const stderr = [...first.logs(), ...standby.logs(), ...agent.logs()].filter((l) => l.event === 'stderr').map((l) => String(l.line));
    expect(stderr.filter((l) => l.includes('DEP0123'))).toEqual([]);
  }, 150_000);
});
