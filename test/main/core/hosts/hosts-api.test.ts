// Hosts clusters through the console API: kinds, hosts, node agent identities issued like the cluster agent's
// (urn:navin:host:<id>, key once, a new one revokes the old, a signed node config), and what is refused.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import forge from 'node-forge';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyDocument } from '../../../../main/wire/envelope';
import { nodeEd25519 } from '../../../../main/wire/ed25519-node';
import { publicKeyFromPem } from '../../../../main/wire/public-key-pem';
import { keyId } from '../../../../main/wire/encoding';
import { testManager, type TestManager } from '../../../support/manager';
import type { Credentials } from '../../../../main/core/http/router';

describe('hosts clusters in the console API', () => {
  let t: TestManager;
  let admin: Credentials;
  let clusterId: string;
  let hostId: string;

  beforeAll(async () => {
    t = testManager();
    admin = await t.login('root', 'admin');
    const c = await t.call('POST', '/api/v1/clusters', { name: 'edge-hosts', kind: 'hosts', profile: 'development' }, admin);
    expect(c.status).toBe(201);
    clusterId = (c.body as { id: string }).id;
  });
  afterAll(() => t?.close());

  test('a cluster has a kind: kubernetes by default, hosts on request, nothing else, and it never changes', async () => {
    const k = await t.call('POST', '/api/v1/clusters', { name: 'kube-one' }, admin);
    expect(k.body).toMatchObject({ kind: 'kubernetes' });
    expect((await t.call('GET', `/api/v1/clusters/${clusterId}`, undefined, admin)).body).toMatchObject({
      kind: 'hosts',
      state: 'pending',
    });
    const bad = await t.call('POST', '/api/v1/clusters', { name: 'x', kind: 'vms' }, admin);
    expect(bad.body).toMatchObject({ error: { code: 'invalid_field', field: 'kind' } });
    const change = await t.call('PATCH', `/api/v1/clusters/${clusterId}`, { kind: 'kubernetes' }, admin);
    expect(change.status).toBe(400);
  });

  test('hosts are added to a hosts cluster with a name and an address; duplicates, bad input and kubernetes clusters are refused', async () => {
    const added = await t.call('POST', `/api/v1/clusters/${clusterId}/hosts`, { name: 'node-1', address: '198.18.7.11' }, admin);
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      name: 'node-1',
      address: '198.18.7.11',
      state: 'pending',
      facts: null,
      agent: { connected: false },
    });
    hostId = (added.body as { id: string }).id;
    expect(
      (await t.call('POST', `/api/v1/clusters/${clusterId}/hosts`, { name: 'node-1', address: '198.18.7.12' }, admin)).body,
    ).toMatchObject({
      error: { code: 'name_taken' },
    });
    expect(
      (await t.call('POST', `/api/v1/clusters/${clusterId}/hosts`, { name: 'node 2', address: '198.18.7.12' }, admin)).body,
    ).toMatchObject({
      error: { field: 'name' },
    });
    expect(
      (await t.call('POST', `/api/v1/clusters/${clusterId}/hosts`, { name: 'node-2', address: 'not-an-ip' }, admin)).body,
    ).toMatchObject({
      error: { field: 'address' },
    });
    const kube = (await t.call('GET', '/api/v1/clusters', undefined, admin)).body as { items: { id: string; kind: string }[] };
    const kubeId = kube.items.find((c) => c.kind === 'kubernetes')!.id;
    const wrong = await t.call('POST', `/api/v1/clusters/${kubeId}/hosts`, { name: 'node-9', address: '198.18.7.19' }, admin);
    expect(wrong).toMatchObject({ status: 409, body: { error: { code: 'cluster_kind_mismatch' } } });
    const items = (await t.call('GET', `/api/v1/clusters/${clusterId}/hosts`, undefined, admin)).body as { items: unknown[] };
    expect(items.items).toHaveLength(1);
  });

  test('a host identity is a client certificate urn:navin:host:<id> in CN and URI SAN, its key returned once, with a signed node config and the install commands; a new one revokes the old', async () => {
    const first = await t.call('POST', `/api/v1/hosts/${hostId}/agent`, { gateway_url: 'https://manager.example:8462' }, admin);
    expect(first.status).toBe(201);
    const id1 = first.body as any;
    const cert = forge.pki.certificateFromPem(id1.files['tls.crt']);
    expect(cert.subject.getField('CN').value).toBe(`urn:navin:host:${hostId}`);
    const san = cert.getExtension('subjectAltName') as { altNames: { type: number; value: string }[] };
    expect(san.altNames).toEqual([expect.objectContaining({ type: 6, value: `urn:navin:host:${hostId}` })]);
    expect(id1.files['tls.key']).toMatch(/BEGIN PRIVATE KEY/);
    // The key is never stored: the database holds no trace of it.
    const keyBody = id1.files['tls.key'].split('\n')[1];
    expect(readFileSync(join(t.dataDir, 'navin.db')).includes(Buffer.from(keyBody))).toBe(false);
    const managerKey = publicKeyFromPem(id1.files['manager.pem']);
    const v = verifyDocument(id1.files['config.json'], {
      impl: nodeEd25519,
      trustedKeys: new Map([[keyId(managerKey), managerKey]]),
      expectedType: 'agent-config',
      expectedTarget: hostId,
    });
    expect(v.ok).toBe(true);
    expect(v.ok && v.payload).toMatchObject({
      agent: 'node',
      host_id: hostId,
      host_name: 'node-1',
      cluster_id: clusterId,
      gateway_url: 'https://manager.example:8462',
      server_name: 'manager.example',
      managed_roots: ['/etc/navin', '/opt/navin', '/var/lib/navin'],
      client_certificate_serial: id1.serial,
    });
    expect(id1.install_commands).toEqual([
      expect.stringMatching(/^apt-get install \.\/navin-node-agent_\d+\.\d+\.\d+_amd64\.deb$/),
      'install -d -m 0700 /etc/navin-node-agent',
      'install -m 0600 config.json manager.pem tls.crt tls.key ca.crt /etc/navin-node-agent/',
      'systemctl enable --now navin-node-agent.service',
    ]);
    const second = (await t.call('POST', `/api/v1/hosts/${hostId}/agent`, { gateway_url: 'https://manager.example:8462' }, admin))
      .body as any;
    expect(second.revoked_serials).toEqual([id1.serial]);
    expect(t.manager.tables.keys.certificate(id1.serial)?.revoked_at).not.toBeNull();
    expect(t.manager.tables.keys.certificate(second.serial)).toMatchObject({ revoked_at: null, host_id: hostId, cluster_id: clusterId });
    const audit = t.manager.store.audit.list({ limit: 50 }).filter((e) => e.action === 'host.identity_issue');
    expect(audit).toHaveLength(2);
  });

  test('a hosts cluster has no cluster agent nor ManagedComponent commands, and raw plans are refused under four-eyes profiles', async () => {
    const kubeAgent = await t.call(
      'POST',
      `/api/v1/clusters/${clusterId}/kubernetes/agent`,
      { gateway_url: 'https://manager.example:8462' },
      admin,
    );
    expect(kubeAgent).toMatchObject({ status: 409, body: { error: { code: 'cluster_kind_mismatch' } } });
    // In the core: an API caller would first be asked for MFA by the banking-secure profile.
    const secure = t.manager.clusters.create({ name: 'bank-hosts', kind: 'hosts', profile: 'banking-secure' }, 'test');
    const vault = t.manager.hosts.add(secure.id, { name: 'vault-1', address: '198.18.7.21' }, 'test');
    await expect(
      t.manager.hostCommands.issueRawPlan(
        vault.id,
        { tasks: [{ id: 'w', kind: 'file.write', path: '/etc/navin/x', content: 'x' }] },
        'test',
      ),
    ).rejects.toMatchObject({ code: 'raw_plan_refused' });
    t.manager.clusters.remove(secure.id, 'test');
    const ok = await t.call(
      'POST',
      `/api/v1/hosts/${hostId}/plans`,
      { tasks: [{ id: 'w', kind: 'file.write', path: '/etc/navin/x', content: 'x' }] },
      admin,
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(202);
    const envelope = (await t.call('GET', `/api/v1/commands/${(ok.body as { id: string }).id}/envelope`, undefined, admin)).body as any;
    expect(envelope.payload).toMatchObject({ op: 'plan.execute', target: hostId, tenant: 'default' });
    expect(envelope.payload.args.tasks[0].sha256).toMatch(/^[0-9a-f]{64}$/);
    const plan2 = (await t.call('GET', `/api/v1/commands/${(ok.body as { id: string }).id}/plan`, undefined, admin)).body as any;
    expect(plan2).toMatchObject({ host_id: hostId, total: 1, succeeded: 0, state: 'queued', tasks: [{ id: 'w', status: 'pending' }] });
    // A sha256 that is no string, not even printable as one, is a 400 that says so.
    for (const sha256 of [{ toString: 1, valueOf: 1 }, [{ toString: 1 }], 'f'.repeat(64)]) {
      const bad = await t.call(
        'POST',
        `/api/v1/hosts/${hostId}/plans`,
        { tasks: [{ id: 'w', kind: 'file.write', path: '/etc/navin/x', content: 'x', sha256 }] },
        admin,
      );
      expect([bad.status, (bad.body as { error: { code: string } }).error.code], JSON.stringify(sha256)).toEqual([400, 'invalid_field']);
    }
  });

  test("a host's commands are listed up to limit, and a limit out of 1 to 1000 is refused invalid_field, not clamped", async () => {
    for (let i = 0; i < 2; i++) await t.call('POST', `/api/v1/hosts/${hostId}/facts/report`, undefined, admin);
    const all = (await t.call('GET', `/api/v1/hosts/${hostId}/commands`, undefined, admin)).body as { items: unknown[] };
    expect(all.items.length).toBeGreaterThan(1);
    const one = await t.call('GET', `/api/v1/hosts/${hostId}/commands?limit=1`, undefined, admin);
    expect((one.body as { items: unknown[] }).items).toHaveLength(1);
    for (const limit of ['0', '1001', '-1', 'abc', '2.5', '1e3']) {
      const bad = await t.call('GET', `/api/v1/hosts/${hostId}/commands?limit=${limit}`, undefined, admin);
      expect([bad.status, bad.body], limit).toEqual([400, { error: expect.objectContaining({ code: 'invalid_field', field: 'limit' }) }]);
    }
  });

  test('removing a host revokes its certificate', async () => {
    const serial = t.manager.tables.hosts.get(hostId)!;
    expect(serial).toBeTruthy();
    const live = t.manager.tables.hosts.certificates(hostId).filter((c) => c.revoked_at === null);
    expect(live).toHaveLength(1);
    expect((await t.call('DELETE', `/api/v1/hosts/${hostId}`, undefined, admin)).status).toBe(204);
    expect(t.manager.tables.keys.certificate(live[0]!.serial)?.revoked_at).not.toBeNull();
    expect((await t.call('GET', `/api/v1/hosts/${hostId}`, undefined, admin)).status).toBe(404);
  });
});
