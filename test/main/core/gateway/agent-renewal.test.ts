// Agent certificates renew themselves over their own mTLS connection (issue 34), on the real gateway on 127.0.0.1:
// a node agent and a cluster agent whose certificates have passed two thirds of their life (the agent's clock moved)
// renew, keep polling with the new certificate, and their old serials are then refused by the gateway. The manager
// names the certificate by the calling one, never by the CSR; a CSR whose signature fails is refused with its code.
// An answer lost after the manager issued (the connection cut) is no lock-out: the agent, still on its old pair,
// renews again, and the renewal it never received is revoked.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { folderCertificateStore } from '../../../../agent/certificate-files';
import { CertificateRenewer } from '../../../../agent/certificate-renewer';
import { newKeyAndRequest } from '../../../../agent/csr';
import { gatewayClient, type CertificateChannel } from '../../../../agent/gateway-client';
import { loadIdentity } from '../../../../agent/identity';
import { NodeAgent } from '../../../../agent/node/node-agent';
import { normalizeSerial, type Gateway } from '../../../../main/core/gateway/gateway';
import { clusterUri } from '../../../../main/core/keys/ca';
import { GATEWAY_PATHS } from '../../../../main/wire/protocol';
import { hostUri, NODE_AGENT_PATHS, type NodeAgentConfigBody } from '../../../../main/wire/node-agent';
import { until } from '../../../support/agent-harness';
import { gatewayCall, type ClientCert } from '../../../support/gateway-client';
import { testManager, type TestManager } from '../../../support/manager';
import { tempDir } from '../../../support/temp-dir';
import { startTestGateway } from '../../../support/test-gateway';

const DAY = 86_400_000;
/** The agents' clock, 300 of the certificate's 397 days later: past two thirds of its life. */
const later = (): Date => new Date(Date.now() + 300 * DAY);

let t: TestManager;
let gw: Gateway;
const dirs: { remove(): void }[] = [];

beforeAll(async () => {
  t = testManager();
  ({ gateway: gw } = await startTestGateway(t, { hosts: t.manager.hostCommands }));
});
afterAll(async () => {
  await gw?.close();
  t?.close();
  for (const d of dirs) d.remove();
});

/** An identity folder holding the files an identity answer hands out. */
function identityDir(files: Record<string, string>): string {
  const dir = tempDir('navin-identity-');
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir.path, name), text, { mode: 0o600 });
  return dir.path;
}

const certOf = (dir: string): ClientCert => ({
  certPem: readFileSync(join(dir, 'tls.crt'), 'utf8'),
  keyPem: readFileSync(join(dir, 'tls.key'), 'utf8'),
  caPem: readFileSync(join(dir, 'ca.crt'), 'utf8'),
});
/** Serials as compared: the store keeps the CA's hex (leading zeros and all), TLS reports the integer. */
const serialOf = (certPem: string): string => normalizeSerial(new X509Certificate(certPem).serialNumber);
const auditOf = (action: string) => t.manager.store.audit.list({ limit: 200 }).filter((e) => e.action === action);
/** The audit entry of `action` whose target is the certificate `certPem`, its serials as compared. */
function auditFor(action: string, certPem: string): Record<string, unknown> | undefined {
  const entry = auditOf(action).find((e) => normalizeSerial(e.target ?? '') === serialOf(certPem));
  if (!entry) return undefined;
  const d = entry.details as Record<string, unknown>;
  return {
    ...d,
    ...(Array.isArray(d.revoked_serials) ? { revoked_serials: (d.revoked_serials as string[]).map(normalizeSerial) } : {}),
    ...(typeof d.previous_serial === 'string' ? { previous_serial: normalizeSerial(d.previous_serial) } : {}),
  };
}

function newHost(name: string, address: string): { hostId: string; dir: string } {
  const cluster = t.manager.clusters.create({ name: `renew-${name}`, kind: 'hosts' }, 'test');
  const hostId = t.manager.hosts.add(cluster.id, { name, address }, 'test').id;
  const identity = t.manager.hostIdentities.issue(hostId, { gateway_url: gw.url, server_name: 'localhost' }, 'test');
  return { hostId, dir: identityDir(identity.files) };
}

describe('a node agent near expiry', () => {
  test('renews at start, keeps polling with the new certificate, and its old serial is then refused', async () => {
    const { hostId, dir } = newHost('renew-0', '198.18.30.1');
    const old = certOf(dir);
    const root = tempDir('navin-host-');
    dirs.push(root);
    mkdirSync(join(root.path, 'state'));
    const agent = new NodeAgent({
      identity: loadIdentity<NodeAgentConfigBody>(dir),
      version: 'test',
      stateDir: join(root.path, 'state'),
      prefix: root.path,
      renewal: { store: folderCertificateStore(dir), now: later },
    });
    await agent.start();
    try {
      const renewed = await until('the renewed pair in the identity folder', () => {
        const now = certOf(dir);
        return now.certPem !== old.certPem ? now : undefined;
      });
      const cert = new X509Certificate(renewed.certPem);
      expect(cert.checkPrivateKey(createPrivateKey(renewed.keyPem))).toBe(true);
      expect(cert.subjectAltName).toBe(`URI:${hostUri(hostId)}`);
      expect(cert.verify(new X509Certificate(old.caPem).publicKey)).toBe(true);
      // Still connected: the gateway records the new serial of its polls, and a plan reaches the agent and completes.
      await until('the host seen with the new serial', () =>
        normalizeSerial(t.manager.hosts.view(hostId).agent?.certificate_serial ?? '') === serialOf(renewed.certPem) ? true : undefined,
      );
      const plan = t.manager.hostCommands.issuePlan(
        hostId,
        { tasks: [{ id: 'w', kind: 'file.write', path: '/etc/navin/renewed.conf', content: 'ok\n' }] },
        'test',
      );
      await until('the plan done', () => (t.manager.commands.get(plan.id).state === 'succeeded' ? true : undefined), 20_000);
      expect(readFileSync(join(root.path, 'etc/navin/renewed.conf'), 'utf8')).toBe('ok\n');
      // The old certificate is revoked: the gateway refuses it at the handshake, as any revoked one.
      await expect(gatewayCall(gw.url, 'GET', `${NODE_AGENT_PATHS.commands}?wait=0`, old)).rejects.toThrow();
      expect(auditFor('host.certificate_switch', renewed.certPem)).toEqual({ host_id: hostId, revoked_serials: [serialOf(old.certPem)] });
      expect(auditFor('host.certificate_renew', renewed.certPem)).toMatchObject({
        host_id: hostId,
        previous_serial: serialOf(old.certPem),
      });
      expect(JSON.stringify(t.manager.store.audit.list({ limit: 200 }))).not.toContain('PRIVATE KEY');
    } finally {
      await agent.stop();
    }
  }, 60_000);

  test('an identity folder it cannot write keeps the old certificate, and no certificate is asked for', async () => {
    const { hostId, dir } = newHost('renew-1', '198.18.30.2');
    const identity = loadIdentity<NodeAgentConfigBody>(dir);
    const client = gatewayClient(identity, 'renew-1', 'test', NODE_AGENT_PATHS);
    try {
      const renewer = new CertificateRenewer({
        store: folderCertificateStore(join(dir, 'missing')),
        identity,
        gateway: client,
        commonName: hostId,
        isActive: () => true,
        now: later,
      });
      const before = auditOf('host.certificate_renew').length;
      expect(await renewer.check()).toBe('failed');
      expect(auditOf('host.certificate_renew').length).toBe(before);
      expect(certOf(dir).certPem).toBe(identity.certPem);
      expect((await client.commands(0)).commands).toEqual([]);
    } finally {
      client.close();
    }
  });
});

describe('an answer lost after the manager issued', () => {
  test('leaves the agent on its old pair, and the next renewal succeeds and revokes the one never received', async () => {
    const { dir } = newHost('renew-5', '198.18.30.6');
    const old = certOf(dir);
    const identity = loadIdentity<NodeAgentConfigBody>(dir);
    const client = gatewayClient(identity, 'renew-5', 'test', NODE_AGENT_PATHS);
    // The connection is cut once the manager has committed: the answer was issued and recorded, never received.
    const lost: string[] = [];
    const cut: CertificateChannel = {
      renewCertificate: async (csr) => {
        lost.push((await client.renewCertificate(csr)).certificate);
        throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      },
      useCertificate: client.useCertificate,
    };
    const renewer = (gateway: CertificateChannel) =>
      new CertificateRenewer({ store: folderCertificateStore(dir), identity, gateway, commonName: 'x', isActive: () => true, now: later });
    try {
      expect(await renewer(cut).check()).toBe('failed');
      expect(lost).toHaveLength(1);
      // Its folder and memory hold the old pair, whole, still accepted; a restart reads that pair too.
      expect(certOf(dir)).toEqual(old);
      expect(identity.certPem).toBe(old.certPem);
      expect((await client.commands(0)).commands).toEqual([]);
      expect(loadIdentity<NodeAgentConfigBody>(dir).certPem).toBe(old.certPem);
      expect(await renewer(client).check()).toBe('renewed');
      const renewed = certOf(dir);
      expect(new X509Certificate(renewed.certPem).checkPrivateKey(createPrivateKey(renewed.keyPem))).toBe(true);
      expect(auditFor('host.certificate_renew', renewed.certPem)?.revoked_unused_serials).toEqual([
        expect.stringMatching(new RegExp(`^0*${serialOf(lost[0]!)}$`, 'i')),
      ]);
      // The new pair works and its use revokes the old; the certificate never received is refused too.
      expect((await client.commands(0)).commands).toEqual([]);
      await expect(gatewayCall(gw.url, 'GET', `${NODE_AGENT_PATHS.commands}?wait=0`, old)).rejects.toThrow();
      const lostRecord = t.manager.tables.keys.clientCertificateBySerial(serialOf(lost[0]!));
      expect(lostRecord?.revoked_at).not.toBeNull();
    } finally {
      client.close();
    }
  }, 60_000);
});

describe('a cluster agent near expiry', () => {
  test('renews, polls with the new certificate, and its old serial is then refused', async () => {
    const cluster = t.manager.clusters.create({ name: 'renew-k8s' }, 'test');
    const dir = identityDir(t.manager.agentIdentities.issue(cluster.id, gw.url, 'test', 'localhost').files);
    const old = certOf(dir);
    const identity = loadIdentity(dir);
    const client = gatewayClient(identity, 'agent-a', 'test');
    const renewer = (now: () => Date) =>
      new CertificateRenewer({
        store: folderCertificateStore(dir),
        identity,
        gateway: client,
        commonName: cluster.id,
        isActive: () => true,
        now,
      });
    try {
      expect(await renewer(() => new Date()).check()).toBe('not_due');
      expect(await renewer(later).check()).toBe('renewed');
      const renewed = certOf(dir);
      expect(renewed.certPem).not.toBe(old.certPem);
      expect(identity.certPem).toBe(renewed.certPem);
      expect(new X509Certificate(renewed.certPem).subjectAltName).toBe(`URI:${clusterUri(cluster.id)}`);
      // Before the new one is used the old one still works; the first request with the new one revokes it.
      expect((await gatewayCall(gw.url, 'GET', `${GATEWAY_PATHS.commands}?wait=0`, old)).status).toBe(200);
      const cmd = t.manager.commands.issue(cluster.id, 'inventory.report', {}, 'test');
      expect((await client.commands(0)).commands).toHaveLength(1);
      expect(t.manager.commands.get(cmd.id).state).toBe('delivered');
      await expect(gatewayCall(gw.url, 'GET', `${GATEWAY_PATHS.commands}?wait=0`, old)).rejects.toThrow();
      expect(auditFor('agent.certificate_switch', renewed.certPem)).toEqual({
        revoked_serials: [serialOf(old.certPem)],
      });
    } finally {
      client.close();
    }
  });
});

describe('the certificate routes refuse', () => {
  test('a CSR whose signature does not verify, with its code, and issue nothing', async () => {
    const { dir } = newHost('renew-2', '198.18.30.3');
    const { csrPem } = newKeyAndRequest('urn:navin:host:renew-2');
    const der = Buffer.from(csrPem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
    der[der.length - 10] = (der[der.length - 10] ?? 0) ^ 0xff; // a byte of the signature
    const forged = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
    const before = auditOf('host.certificate_renew').length;
    const r = await gatewayCall(gw.url, 'POST', NODE_AGENT_PATHS.certificate, certOf(dir), { csr: forged });
    expect([r.status, r.body.error.code]).toEqual([422, 'csr_signature_invalid']);
    expect(auditOf('host.certificate_renew').length).toBe(before);
    const notPem = await gatewayCall(gw.url, 'POST', NODE_AGENT_PATHS.certificate, certOf(dir), { csr: 'hello' });
    expect([notPem.status, notPem.body.error.code]).toEqual([400, 'bad_request']);
  });

  test("a second renewal before the first is used revokes the first, and the CSR's names are never the certificate's", async () => {
    const { hostId, dir } = newHost('renew-3', '198.18.30.4');
    const other = newHost('renew-4', '198.18.30.5');
    const firstKey = newKeyAndRequest(hostUri(other.hostId));
    const first = await gatewayCall(gw.url, 'POST', NODE_AGENT_PATHS.certificate, certOf(dir), { csr: firstKey.csrPem });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['ca', 'certificate', 'not_after', 'serial']);
    const cert = new X509Certificate(first.body.certificate);
    expect([cert.subject, cert.subjectAltName]).toEqual([`CN=${hostUri(hostId)}\nO=navin-node-agent`, `URI:${hostUri(hostId)}`]);
    const again = await gatewayCall(gw.url, 'POST', NODE_AGENT_PATHS.certificate, certOf(dir), {
      csr: newKeyAndRequest(hostId).csrPem,
    });
    expect(again.status).toBe(200);
    expect(auditFor('host.certificate_renew', again.body.certificate)).toMatchObject({
      previous_serial: serialOf(certOf(dir).certPem),
      revoked_unused_serials: [serialOf(first.body.certificate)].map((s) => expect.stringMatching(new RegExp(`^0*${s}$`, 'i'))),
    });
    // The first, never used, is refused; the second and the caller's still work.
    const firstCert = { certPem: first.body.certificate, keyPem: firstKey.keyPem, caPem: certOf(dir).caPem };
    await expect(gatewayCall(gw.url, 'GET', `${NODE_AGENT_PATHS.commands}?wait=0`, firstCert)).rejects.toThrow();
    expect((await gatewayCall(gw.url, 'GET', `${NODE_AGENT_PATHS.commands}?wait=0`, certOf(dir))).status).toBe(200);
    // A node agent's certificate renews on its own route only.
    const wrong = await gatewayCall(gw.url, 'POST', GATEWAY_PATHS.certificate, certOf(other.dir), {
      csr: newKeyAndRequest(other.hostId).csrPem,
    });
    expect(wrong.status).toBe(403);
  });
});
