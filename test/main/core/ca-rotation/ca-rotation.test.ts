// The manager CA's rotation as a state machine (issue 34), its agents answered by hand: each stage waits for every
// agent (one that does not answer holds it and is named), the state survives a manager stopped halfway, the new CA
// issues only once every agent trusts it, and retiring revokes the old CA's certificates and trusts the new alone.
import { X509Certificate } from 'node:crypto';
import { afterAll, describe, expect, test } from 'vitest';
import { newKeyAndRequest } from '../../../../agent/csr';
import { AgentRenewals } from '../../../../main/core/certificates/agent-renewals';
import { openManager, type Manager } from '../../../../main/core/manager';
import { verifyDocument } from '../../../../main/wire/envelope';
import { nodeEd25519 } from '../../../../main/wire/ed25519-node';
import { OP_CA_TRUST, type CaTrustArgs } from '../../../../main/wire/ca-trust';
import { tempDir } from '../../../support/temp-dir';

const dir = tempDir('navin-ca-rotation-');
afterAll(() => dir.remove());
const open = (): Manager => openManager({ dataDir: dir.path, mode: 'headless' });

interface Agent {
  clusterId: string;
  hostId: string | null;
  serial: string;
}

/** The ca.trust commands sent to an agent so far, newest last, with their signed args. */
function trustCommands(m: Manager, a: Agent): { id: string; state: string; args: CaTrustArgs }[] {
  const list = a.hostId ? m.hostCommands.list(a.hostId, 'admin', 50) : m.commands.list(a.clusterId, 50);
  return list
    .filter((c) => c.op === OP_CA_TRUST)
    .reverse()
    .map((c) => {
      const v = verifyDocument(m.commands.envelope(c.id), { impl: nodeEd25519, trustedKeys: m.keyring.trusted(), expectedType: 'command' });
      if (!v.ok) throw new Error(`the command ${c.id} does not verify: ${v.code}`);
      return { id: c.id, state: c.state, args: (v.payload as unknown as { args: CaTrustArgs }).args };
    });
}

/** The agent answers its newest ca.trust command. */
function answer(m: Manager, a: Agent, status: 'succeeded' | 'failed' = 'succeeded'): CaTrustArgs {
  const last = trustCommands(m, a).at(-1)!;
  expect(last.state).toBe('queued');
  const receipt = { command_id: last.id, status, executed_at: new Date().toISOString(), replica: 'r', result: {} };
  if (a.hostId) m.hostCommands.recordReceipt(a.hostId, receipt, 'agent');
  else m.commands.recordReceipt(a.clusterId, receipt, 'agent');
  return last.args;
}

/** The agent renews as the gateway has it: a CSR on its certificate, then its first request with the new one. */
function renew(m: Manager, a: Agent): string {
  const renewals = new AgentRenewals(m.store, m.tables, m.ca, m.clock, m.events);
  const { csrPem } = newKeyAndRequest('x');
  const answered = renewals.renew(a.serial, csrPem);
  renewals.seen(m.tables.keys.certificate(answered.serial)!);
  a.serial = answered.serial;
  return answered.certificate;
}

/** A certificate's serial as the store records it (the CA's hex, which TLS reports as an integer). */
const stored = (m: Manager, pem: string): string => m.tables.keys.clientCertificateBySerial(new X509Certificate(pem).serialNumber)!.serial;
const subjectOf = (pem: string): string => new X509Certificate(pem).subject;

describe('a CA rotation over a cluster agent and two node agents', () => {
  let m = open();
  const oldCa = m.ca.issuerPem;
  const k8s = m.clusters.create({ name: 'rot-k8s' }, 'test');
  const hosts = m.clusters.create({ name: 'rot-hosts', kind: 'hosts' }, 'test');
  const agents: Agent[] = [];
  const cert = m.agentIdentities.issue(k8s.id, 'https://localhost:8462', 'test').files['tls.crt'];
  agents.push({ clusterId: k8s.id, hostId: null, serial: stored(m, cert) });
  for (const [i, address] of ['198.18.40.1', '198.18.40.2'].entries()) {
    const hostId = m.hosts.add(hosts.id, { name: `rot-${i}`, address }, 'test').id;
    const files = m.hostIdentities.issue(hostId, { gateway_url: 'https://localhost:8462', server_name: 'localhost' }, 'test').files;
    agents.push({ clusterId: hosts.id, hostId, serial: stored(m, files['tls.crt']) });
  }
  const [clusterAgent, host0, host1] = agents as [Agent, Agent, Agent];
  afterAll(() => m.close());

  test('started: a new CA trusted beside the old, which still issues; every agent is sent both, signed', () => {
    const view = m.caRotation.start('admin-a');
    expect(view.state).toBe('started');
    expect(m.ca.issuerPem).toBe(oldCa);
    expect(m.ca.trustedPems()).toHaveLength(2);
    expect(m.ca.trustedPems()[0]).toBe(oldCa);
    for (const a of agents) {
      const sent = trustCommands(m, a);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.args).toEqual({ rotation_id: view.id, ca_pems: m.ca.trustedPems(), renew: false });
    }
    expect(view.stages).toEqual({ pending: 3, 'trusts-both': 0, renewed: 0, 'trusts-new': 0 });
    expect(() => m.caRotation.start('admin-b')).toThrow(expect.objectContaining({ code: 'ca_rotation_in_progress' }));
  });

  test('an agent that does not answer holds the rotation in its stage, named, and a failed answer is sent again', () => {
    answer(m, clusterAgent);
    answer(m, host0, 'failed');
    m.caRotation.advance();
    expect(trustCommands(m, host0)).toHaveLength(2);
    answer(m, host0);
    m.caRotation.advance();
    const view = m.caRotation.progress()!;
    expect(view.state).toBe('started');
    expect(view.stages).toEqual({ pending: 1, 'trusts-both': 2, renewed: 0, 'trusts-new': 0 });
    expect(view.waiting_for).toEqual(['rot-1']);
    expect(view.agents.find((a) => a.host_id === host1.hostId)).toMatchObject({ stage: 'pending', offline: true });
    expect(m.ca.issuerPem).toBe(oldCa);
  });

  test('a manager stopped halfway resumes: the same rotation, the same CAs, the same commands', () => {
    const before = m.caRotation.progress()!;
    const trusted = m.ca.trustedPems();
    m.close();
    m = open();
    expect(m.caRotation.progress()).toMatchObject({ id: before.id, state: 'started', stages: before.stages });
    expect(m.ca.trustedPems()).toEqual(trusted);
    m.caRotation.advance();
    expect(trustCommands(m, host1)).toHaveLength(1);
  });

  test('serving-new once every agent trusts both: the new CA issues, and each agent is asked to renew', () => {
    answer(m, host1);
    m.caRotation.advance();
    const view = m.caRotation.progress()!;
    expect(view.state).toBe('serving-new');
    expect(m.ca.issuerPem).not.toBe(oldCa);
    expect(m.ca.trustedPems()).toEqual([m.ca.issuerPem, oldCa]);
    for (const a of agents) expect(trustCommands(m, a).at(-1)!.args).toMatchObject({ ca_pems: [m.ca.issuerPem, oldCa], renew: true });
  });

  test('retiring only once every agent was seen with a new-CA certificate; then done once each trusts the new alone', () => {
    const newCa = m.ca.issuerPem;
    for (const a of [clusterAgent, host0]) {
      const renewed = renew(m, a);
      expect(new X509Certificate(renewed).verify(new X509Certificate(newCa).publicKey)).toBe(true);
      answer(m, a);
    }
    m.caRotation.advance();
    expect(m.caRotation.progress()).toMatchObject({ state: 'serving-new', waiting_for: ['rot-1'] });
    const oldOfHost1 = host1.serial;
    renew(m, host1);
    answer(m, host1);
    m.caRotation.advance();
    expect(m.caRotation.progress()!.state).toBe('retiring');
    expect(m.ca.trustedPems()).toEqual([newCa]);
    expect(m.tables.keys.ca()!.cert_pem).toBe(newCa);
    expect(m.tables.keys.clientCertificateBySerial(oldOfHost1)!.revoked_at).not.toBeNull();
    // Every certificate the old CA issued is revoked; those of the new one are live.
    expect(m.tables.keys.certificates().filter((c) => c.revoked_at === null)).toHaveLength(3);
    for (const a of agents) {
      expect(trustCommands(m, a).at(-1)!.args).toMatchObject({ ca_pems: [newCa], renew: false });
      answer(m, a);
    }
    m.caRotation.advance();
    const done = m.caRotation.progress()!;
    expect(done).toMatchObject({ state: 'done', waiting_for: [], stages: { pending: 0, 'trusts-both': 0, renewed: 0, 'trusts-new': 3 } });
    expect(done.finished_at).not.toBeNull();
    expect(subjectOf(newCa)).toContain(done.id);
    // The store's CA is the new one after a restart, alone.
    m.close();
    m = open();
    expect(m.ca.trustedPems()).toEqual([newCa]);
    expect(m.store.audit.list({ limit: 500 }).map((e) => e.action)).toEqual(
      expect.arrayContaining(['ca.rotation_start', 'ca.rotation_serving_new', 'ca.rotation_retiring', 'ca.rotation_done']),
    );
  });
});
