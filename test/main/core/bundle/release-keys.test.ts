// The release key: created on the connected side in its own sealed file (never the command key), exported as
// PEM without the passphrase, opened only with it; trusted on the isolated side by an audited list that
// refuses the manager's own keys.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createReleaseKeyFile, exportReleaseKey, openReleaseKey, readPassphrase } from '../../../../main/core/bundle/release-key-file';
import { nodeEd25519 } from '../../../../main/wire/ed25519-node';
import { signDocument, verifyDocument } from '../../../../main/wire/envelope';
import { publicKeyFromPem } from '../../../../main/wire/public-key-pem';
import { testManager, type TestManager } from '../../../support/manager';
import { tempDir } from '../../../support/temp-dir';

const PASS = 'a long enough passphrase';

describe('release key file', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  test('created 0600, exported without the passphrase, opened with it to sign bundles', () => {
    const file = join(dir.path, 'release.key');
    const created = createReleaseKeyFile(file, PASS, nodeEd25519, { label: 'ops 2026' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain(PASS);
    const exported = exportReleaseKey(file);
    expect(exported).toEqual({ key_id: created.key_id, label: 'ops 2026', public_key_pem: created.public_key_pem });
    const signer = openReleaseKey(file, PASS, nodeEd25519);
    expect(signer.keyId).toBe(created.key_id);
    const doc = signDocument({ type: 'bundle', bundle_id: 'x' }, signer);
    const pub = publicKeyFromPem(exported.public_key_pem);
    expect(verifyDocument(doc, { impl: nodeEd25519, trustedKeys: new Map([[created.key_id, pub]]), expectedType: 'bundle' }).ok).toBe(true);
    // A bundle signature is never a command.
    expect(
      verifyDocument(doc, { impl: nodeEd25519, trustedKeys: new Map([[created.key_id, pub]]), expectedType: 'command' }),
    ).toMatchObject({
      ok: false,
      code: 'type_mismatch',
    });
  });

  test('a wrong passphrase, an altered file, an existing file and a short passphrase are refused with their codes', () => {
    const file = join(dir.path, 'k2.key');
    createReleaseKeyFile(file, PASS, nodeEd25519);
    expect(() => openReleaseKey(file, 'another long passphrase', nodeEd25519)).toThrow(
      expect.objectContaining({ code: 'release_key_unseal_failed' }),
    );
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    const other = join(dir.path, 'other.key');
    const second = createReleaseKeyFile(other, PASS, nodeEd25519);
    // The sealed seed is bound to its key id: swapping the public half is noticed.
    writeFileSync(file, JSON.stringify({ ...doc, key_id: second.key_id, public_key_pem: second.public_key_pem }));
    expect(() => openReleaseKey(file, PASS, nodeEd25519)).toThrow(expect.objectContaining({ code: 'release_key_unseal_failed' }));
    expect(() => createReleaseKeyFile(other, PASS, nodeEd25519)).toThrow(expect.objectContaining({ code: 'release_key_exists' }));
    const pw = join(dir.path, 'pw');
    writeFileSync(pw, 'short\n');
    expect(() => readPassphrase(pw)).toThrow(expect.objectContaining({ code: 'passphrase_weak' }));
    writeFileSync(pw, `${PASS}\nignored`);
    expect(readPassphrase(pw)).toBe(PASS);
  });
});

describe('trusted release keys', () => {
  let t: TestManager;
  const dir = tempDir();
  beforeAll(() => (t = testManager()));
  afterAll(() => {
    t?.close();
    dir.remove();
  });

  test('an admin trusts and untrusts a key; each change is audited; the manager key and duplicates are refused', async () => {
    const admin = await t.login('ada', 'admin');
    const viewer = await t.login('vic', 'viewer');
    const key = createReleaseKeyFile(join(dir.path, 'r.key'), PASS, nodeEd25519);
    const added = await t.call('POST', '/api/v1/settings/release-keys', { public_key_pem: key.public_key_pem, label: 'ops' }, admin);
    expect(added).toMatchObject({ status: 201, body: { key_id: key.key_id, label: 'ops', added_by: 'ada' } });
    expect(t.manager.releaseKeys.trusted().has(key.key_id)).toBe(true);
    expect((await t.call('GET', '/api/v1/settings/release-keys', undefined, viewer)).body).toEqual({
      keys: [expect.objectContaining({ key_id: key.key_id })],
    });
    expect((await t.call('POST', '/api/v1/settings/release-keys', { public_key_pem: key.public_key_pem }, admin)).body).toMatchObject({
      error: { code: 'release_key_trusted' },
    });
    const manager = await t.call('POST', '/api/v1/settings/release-keys', { public_key_pem: t.manager.keyring.managerPem() }, admin);
    expect(manager).toMatchObject({ status: 409, body: { error: { code: 'release_key_is_manager_key' } } });
    expect((await t.call('POST', '/api/v1/settings/release-keys', { public_key_pem: 'nope' }, admin)).status).toBe(400);
    expect((await t.call('POST', '/api/v1/settings/release-keys', { public_key_pem: key.public_key_pem }, viewer)).status).toBe(403);
    expect((await t.call('DELETE', `/api/v1/settings/release-keys/${key.key_id}`, undefined, admin)).status).toBe(204);
    expect(t.manager.releaseKeys.trusted().size).toBe(0);
    expect((await t.call('DELETE', `/api/v1/settings/release-keys/${key.key_id}`, undefined, admin)).status).toBe(404);
    expect(
      t.manager.store.audit
        .list({})
        .filter((a) => a.action.startsWith('release_key.'))
        .map((a) => [a.action, a.target]),
    ).toEqual(
      expect.arrayContaining([
        ['release_key.trust', key.key_id],
        ['release_key.untrust', key.key_id],
      ]),
    );
  });
});
