// An auditor's check from the terminal: a report signed by this test with node:crypto alone (not our signer),
// following the documented format, passes navin-manager verify-report; any tampering fails it.
import { afterAll, describe, expect, test } from 'vitest';
import { generateKeyPairSync, sign } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/temp-dir';
import { canonicalize } from '../../../main/wire/canonical-json';

const dir = tempDir('navin-verify-');
afterAll(() => dir.remove());

function keyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  return {
    pem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    privateKey,
    keyId: createHash('sha256').update(raw).digest('hex').slice(0, 16),
  };
}

function signed(payload: Record<string, unknown>, privateKey: ReturnType<typeof keyPair>['privateKey']): string {
  const signature = sign(null, Buffer.from(canonicalize(payload), 'utf8'), privateKey).toString('base64url');
  return JSON.stringify({ payload, signature }, null, 2);
}

const write = (name: string, text: string): string => {
  const f = join(dir.path, name);
  writeFileSync(f, text);
  return f;
};

describe('navin-manager verify-report', () => {
  const k = keyPair();
  const pem = write('manager.pem', k.pem);
  const payload = {
    type: 'report',
    v: 1,
    key_id: k.keyId,
    cluster_id: 'c1',
    verdict: 'FAIL',
    lines: [{ check: 'agent.mtls', status: 'FAIL', evidence: { error: 'refused' } }],
    created_at: '2026-12-02T10:00:00Z',
  };

  test('a report signed by node:crypto in the documented format is valid (exit 0, one line)', () => {
    const r = runCli(['verify-report', '--file', write('ok.json', signed(payload, k.privateKey)), '--public-key', pem]);
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toMatch(/^valid/);
  });

  test('one changed byte in its payload gives exit 1 with signature_invalid', () => {
    const text = signed(payload, k.privateKey).replace('"FAIL"', '"PASS"');
    const r = runCli(['verify-report', '--file', write('tampered.json', text), '--public-key', pem]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^invalid: signature_invalid/);
  });

  test('a report signed by another key gives exit 1 with key_unknown', () => {
    const other = keyPair();
    const r = runCli([
      'verify-report',
      '--file',
      write('other.json', signed({ ...payload, key_id: other.keyId }, other.privateKey)),
      '--public-key',
      pem,
    ]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/key_unknown/);
  });

  test('a valid document that is not a report gives exit 1 with type_mismatch', () => {
    const r = runCli([
      'verify-report',
      '--file',
      write('config.json', signed({ ...payload, type: 'agent-config', target: 'c1', tenant: 't' }, k.privateKey)),
      '--public-key',
      pem,
    ]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/type_mismatch/);
  });

  test('garbage gives exit 1 with malformed; an unreadable file or missing option exit 2', () => {
    expect(runCli(['verify-report', '--file', write('junk.json', '{"payload": 1'), '--public-key', pem])).toMatchObject({
      status: 1,
      stdout: expect.stringMatching(/malformed/),
    });
    expect(runCli(['verify-report', '--file', join(dir.path, 'absent.json'), '--public-key', pem]).status).toBe(2);
    expect(runCli(['verify-report', '--file', join(dir.path, 'ok.json')]).status).toBe(2);
  });

  test('canonicalize prints the exact signed bytes of the payload', () => {
    const f = write('c.json', signed(payload, k.privateKey));
    const r = runCli(['canonicalize', f, '--payload']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(canonicalize(payload));
    expect(runCli(['canonicalize', write('dup.json', '{"a":1,"a":2}')])).toMatchObject({
      status: 1,
      stderr: expect.stringMatching(/duplicate/),
    });
  });
});
