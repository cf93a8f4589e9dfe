// The manager's keys and CA: first run creates them sealed at rest, rotation keeps old keys trusted until
// retired, manager.pem is standard SPKI PEM, and every certificate is recorded with its cluster.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { testManager, type TestManager } from '../../../support/manager';
import { openManager } from '../../../../main/core/manager';
import { signDocument, verifyDocument } from '../../../../main/wire/envelope';
import { nodeEd25519 } from '../../../../main/wire/ed25519-node';
import { clusterUri } from '../../../../main/core/keys/ca';
import type { Credentials } from '../../../../main/core/http/router';

describe('manager keys and CA', () => {
  let t: TestManager;
  let admin: Credentials;
  beforeAll(async () => {
    t = testManager();
    admin = await t.login('alice', 'admin');
  });
  afterAll(() => t.close());

  test('private keys are sealed at rest: no PEM private key and no seed in the data dir', () => {
    const seedRow = t.manager.tables.keys.signingKeys()[0]!;
    expect(seedRow.sealed_seed.subarray(0, 4).toString()).toBe('NVK1');
    for (const f of readdirSync(t.dataDir, { recursive: true, encoding: 'utf8' })
      .map((f) => join(t.dataDir, f))
      .filter((f) => statSync(f).isFile())) {
      expect(readFileSync(f, 'latin1')).not.toMatch(/PRIVATE KEY/);
    }
  });

  test('manager.pem is SPKI PEM that openssl reads as an Ed25519 key', () => {
    const pem = join(t.dataDir, 'manager.pem');
    writeFileSync(pem, t.manager.keyring.managerPem());
    expect(execFileSync('openssl', ['pkey', '-pubin', '-in', pem, '-noout', '-text'], { encoding: 'utf8' })).toMatch(/ED25519 Public-Key/);
  });

  test('rotation: the new key signs, the old one stays trusted until retired, the active one cannot be retired', async () => {
    const old = t.manager.keyring.active();
    const before = signDocument({ type: 'report', v: 1, verdict: 'PASS' }, old);
    const rotated = await t.call('POST', '/api/v1/keys/rotate', undefined, admin);
    expect(rotated.status).toBe(201);
    const fresh = t.manager.keyring.active();
    expect(fresh.keyId).not.toBe(old.keyId);
    expect([...t.manager.keyring.trusted().keys()].sort()).toEqual([old.keyId, fresh.keyId].sort());
    expect(verifyDocument(before, { impl: nodeEd25519, trustedKeys: t.manager.keyring.trusted(), expectedType: 'report' }).ok).toBe(true);
    expect((await t.call('POST', `/api/v1/keys/${fresh.keyId}/retire`, undefined, admin)).body).toMatchObject({
      error: { code: 'key_active' },
    });
    expect((await t.call('POST', `/api/v1/keys/${old.keyId}/retire`, undefined, admin)).status).toBe(200);
    expect(verifyDocument(before, { impl: nodeEd25519, trustedKeys: t.manager.keyring.trusted(), expectedType: 'report' })).toMatchObject({
      ok: false,
      code: 'key_unknown',
    });
    expect(t.manager.store.audit.list({ action: 'key.rotate' })).toHaveLength(1);
  });

  test('the gateway certificate carries the server name, a client certificate its cluster, both from the CA and recorded', () => {
    const gw = t.manager.ca.issueServer('gateway', ['manager.example']);
    const ca = new X509Certificate(t.manager.ca.certPem);
    const server = new X509Certificate(gw.certPem);
    expect(server.subjectAltName).toContain('DNS:manager.example');
    expect(server.verify(ca.publicKey)).toBe(true);
    const client = t.manager.ca.issueClient('cluster-42');
    const cert = new X509Certificate(client.certPem);
    expect(cert.subjectAltName).toContain(`URI:${clusterUri('cluster-42')}`);
    expect(cert.subject).toContain('CN=cluster-42');
    expect(t.manager.tables.keys.certificate(client.serial)).toMatchObject({ kind: 'client', cluster_id: 'cluster-42', revoked_at: null });
  });
  test('the keys survive a restart: the same CA and the same active key', () => {
    const ca = t.manager.ca.certPem;
    const active = t.manager.keyring.active().keyId;
    t.manager.close();
    const again = openManager({ dataDir: t.dataDir, mode: 'headless' });
    try {
      expect(again.ca.certPem).toBe(ca);
      expect(again.keyring.active().keyId).toBe(active);
    } finally {
      again.close();
    }
  });
});
