// The auditor's check: a report signed outside our signer (plain node:crypto) verifies against its PEM,
// and every way of getting it wrong has its own code.
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../../main/wire/canonical-json';
import { nodeEd25519 } from '../../../main/wire/ed25519-node';
import { nobleEd25519 } from '../../../main/wire/ed25519-noble';
import { keyId } from '../../../main/wire/encoding';
import { verifyReport } from '../../../main/wire/report-verify';

function rawPublicKey(key: KeyObject): Uint8Array {
  return new Uint8Array(key.export({ format: 'der', type: 'spki' }).subarray(12));
}

// Built by hand on purpose: only canonicalize is ours, so the test proves interoperability, not self-consistency.
function signedReport(privateKey: KeyObject, publicKey: KeyObject, payload: Record<string, unknown>): string {
  const full = { ...payload, v: 1, key_id: keyId(rawPublicKey(publicKey)) };
  const signature = sign(null, Buffer.from(canonicalize(full), 'utf8'), privateKey).toString('base64url');
  return JSON.stringify({ payload: full, signature }, null, 2);
}

describe.each([nodeEd25519, nobleEd25519])('verifyReport with $name', (impl) => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const pem = publicKey.export({ format: 'pem', type: 'spki' }) as string;
  const body = {
    type: 'report',
    verdict: 'PASS',
    cluster: 'c-0001',
    lines: [{ check: 'opa.readiness', result: 'PASS', evidence: 'HTTP 200 «ok»' }],
  };
  const text = signedReport(privateKey, publicKey, body);

  it('accepts a report signed with node:crypto directly, against its SPKI PEM', () => {
    const result = verifyReport(text, pem, impl);
    expect(result).toMatchObject({ ok: true, payload: { type: 'report', verdict: 'PASS' } });
  });

  it('signature_invalid when one field of the payload changed', () => {
    expect(verifyReport(text.replace('"verdict": "PASS"', '"verdict": "FAIL"'), pem, impl)).toMatchObject({
      ok: false,
      code: 'signature_invalid',
    });
  });

  it('signature_invalid when one byte of a string in the payload changed', () => {
    const tampered = text.replace('HTTP 200', 'HTTP 201');
    expect(tampered).not.toBe(text);
    expect(verifyReport(tampered, pem, impl)).toMatchObject({ ok: false, code: 'signature_invalid' });
  });

  it('key_unknown when the report was signed by another key', () => {
    const other = generateKeyPairSync('ed25519');
    expect(verifyReport(signedReport(other.privateKey, other.publicKey, body), pem, impl)).toMatchObject({
      ok: false,
      code: 'key_unknown',
    });
  });

  it('type_mismatch when a validly signed document is not a report', () => {
    const config = signedReport(privateKey, publicKey, { type: 'agent-config', target: 'c-0001', tenant: 'acme' });
    expect(verifyReport(config, pem, impl)).toMatchObject({ ok: false, code: 'type_mismatch' });
  });

  it('malformed when the document is not a signed document', () => {
    expect(verifyReport('{"payload": {}}', pem, impl)).toMatchObject({ ok: false, code: 'malformed' });
    expect(verifyReport('', pem, impl)).toMatchObject({ ok: false, code: 'malformed' });
  });

  it('pem_invalid when the public key is not an Ed25519 PEM', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'pem', type: 'spki' }) as string;
    expect(verifyReport(text, rsa, impl)).toMatchObject({ ok: false, code: 'pem_invalid' });
    expect(verifyReport(text, 'garbage', impl)).toMatchObject({ ok: false, code: 'pem_invalid' });
  });
});
