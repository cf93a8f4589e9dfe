// Signed envelopes: what signDocument writes, and every verification code reached on its own.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findOpenssl } from './openssl';
import { canonicalBytes } from '../../../main/wire/canonical-json';
import { nodeEd25519 } from '../../../main/wire/ed25519-node';
import { nobleEd25519 } from '../../../main/wire/ed25519-noble';
import { fromBase64url, keyId, toBase64url } from '../../../main/wire/encoding';
import {
  buildCommand,
  createSigner,
  MemoryNonceStore,
  signDocument,
  verifyDocument,
  type SignedDocument,
} from '../../../main/wire/envelope';
import { WireError } from '../../../main/wire/errors';
import { publicKeyToPem } from '../../../main/wire/public-key-pem';
import { command, NOW, options, otherSigner, SEED, signer, TARGET, TENANT, trustedKeys, VALIDITY_S } from './fixtures';

const OPENSSL = findOpenssl();
const at = (iso: string) => () => new Date(iso);
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('signDocument and buildCommand', () => {
  it('builds a command with a uuid, a 16-byte nonce and a window from the given clock', () => {
    const c = buildCommand({
      tenant: TENANT,
      target: TARGET,
      op: 'managedcomponent.delete',
      args: { name: 'opa' },
      now: NOW,
      validitySeconds: VALIDITY_S,
    });
    expect(c).toMatchObject({
      type: 'command',
      v: 1,
      tenant: TENANT,
      target: TARGET,
      op: 'managedcomponent.delete',
      args: { name: 'opa' },
    });
    expect(c.command_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(fromBase64url(c.nonce)).toHaveLength(16);
    expect(c.issued_at).toBe('2026-12-02T10:00:00.000Z');
    expect(c.not_before).toBe(c.issued_at);
    expect(c.not_after).toBe('2026-12-02T10:15:00.000Z');
    expect(buildCommand({ tenant: TENANT, target: TARGET, op: 'x', now: () => NOW, validitySeconds: 1 }).nonce).not.toBe(c.nonce);
    expect(() => buildCommand({ tenant: TENANT, target: TARGET, op: 'x', validitySeconds: 0 })).toThrow(WireError);
  });

  it('sets key_id and v, and signs the canonical bytes of the payload', () => {
    const doc = signDocument({ type: 'report', verdict: 'PASS', lines: [{ b: 1, a: 2 }] }, signer);
    expect(doc.payload).toMatchObject({ type: 'report', v: 1, key_id: signer.keyId, verdict: 'PASS' });
    expect(Object.keys(doc)).toEqual(['payload', 'signature']);
    expect(nodeEd25519.verify(signer.publicKey, canonicalBytes(doc.payload), fromBase64url(doc.signature))).toBe(true);
  });

  it('returns a payload detached from the caller objects', () => {
    const args = { name: 'opa' };
    const doc = signDocument({ type: 'report', args }, signer);
    args.name = 'changed';
    const result = verifyDocument(doc, options({ expectedType: 'report', expectedTarget: undefined, expectedTenant: undefined }));
    expect(result).toMatchObject({ ok: true, payload: { args: { name: 'opa' } } });
  });

  it('refuses to sign a payload a verifier would call malformed', () => {
    const { nonce: _nonce, ...noNonce } = buildCommand({ tenant: TENANT, target: TARGET, op: 'x', now: NOW, validitySeconds: 60 });
    expect(() => signDocument(noNonce as never, signer)).toThrow(expect.objectContaining({ code: 'payload_invalid' }));
    expect(() => signDocument({ type: 'agent-config', target: TARGET }, signer)).toThrow(
      expect.objectContaining({ code: 'payload_invalid' }),
    );
    expect(() => signDocument({ type: 'report', x: NaN }, signer)).toThrow(expect.objectContaining({ code: 'jcs_non_finite' }));
  });

  it('createSigner keeps its own copy of the seed, for both implementations', () => {
    for (const impl of [nodeEd25519, nobleEd25519]) {
      const seed = SEED.slice();
      const s = createSigner(impl, seed);
      seed.fill(0);
      expect(s.keyId).toBe(keyId(nodeEd25519.publicKey(SEED)));
      expect(verifyDocument(command({ signer: s }), options()).ok).toBe(true);
    }
  });
});

describe('verifyDocument', () => {
  it('accepts a fresh command signed by a trusted key, with either implementation, as text or object', () => {
    const doc = command();
    for (const impl of [nodeEd25519, nobleEd25519]) {
      const fromObject = verifyDocument(doc, options({ impl }));
      expect(fromObject).toEqual({ ok: true, payload: doc.payload });
      expect(verifyDocument(JSON.stringify(doc, null, 2), options({ impl })).ok).toBe(true);
    }
  });

  it('accepts an agent-config without a validity window (the agent checks it at start)', () => {
    const config = signDocument(
      { type: 'agent-config', target: TARGET, tenant: TENANT, gateway_url: 'https://manager.example:8462', lease_duration_s: 15 },
      signer,
    );
    expect(verifyDocument(JSON.stringify(config), { impl: nobleEd25519, trustedKeys, expectedType: 'agent-config' }).ok).toBe(true);
  });

  it('malformed: a command without its nonce, even correctly signed', () => {
    const { nonce: _nonce, ...payload } = command().payload;
    const doc = { payload, signature: toBase64url(signer.sign(canonicalBytes(payload))) };
    expect(verifyDocument(doc, options())).toMatchObject({ ok: false, code: 'malformed' });
  });

  it('key_unknown: a valid command signed by a key that is not trusted', () => {
    const doc = command({ signer: otherSigner });
    expect(verifyDocument(doc, options())).toMatchObject({ ok: false, code: 'key_unknown' });
    expect(verifyDocument(doc, options({ trustedKeys: new Map([[otherSigner.keyId, otherSigner.publicKey]]) })).ok).toBe(true);
  });

  it('key_unknown: a trust entry whose id is not the key id of its key trusts nothing', () => {
    const doc = command({ signer: otherSigner });
    expect(verifyDocument(doc, options({ trustedKeys: new Map([[otherSigner.keyId, signer.publicKey]]) }))).toMatchObject({
      code: 'key_unknown',
    });
  });

  it('signature_invalid: one payload field changed after signing', () => {
    const doc = clone(command());
    doc.payload.op = 'managedcomponent.delete';
    expect(verifyDocument(doc, options())).toMatchObject({ ok: false, code: 'signature_invalid' });
  });

  it('signature_invalid: a signature made by another key under our key id', () => {
    const doc = clone(command());
    doc.signature = toBase64url(otherSigner.sign(canonicalBytes(doc.payload)));
    expect(verifyDocument(doc, options())).toMatchObject({ ok: false, code: 'signature_invalid' });
  });

  it('type_mismatch: a validly signed desired-state offered as a command', () => {
    const doc = signDocument({ type: 'desired-state', target: TARGET, tenant: TENANT, generation: 1, components: {} }, signer);
    expect(verifyDocument(doc, options())).toMatchObject({ ok: false, code: 'type_mismatch' });
    expect(verifyDocument(doc, options({ expectedType: 'desired-state' })).ok).toBe(true);
  });

  it('target_mismatch: a command for another cluster', () => {
    expect(verifyDocument(command(), options({ expectedTarget: 'c-0002' }))).toMatchObject({ ok: false, code: 'target_mismatch' });
  });

  it('tenant_mismatch: a command for another tenant', () => {
    expect(verifyDocument(command(), options({ expectedTenant: 'globex' }))).toMatchObject({ ok: false, code: 'tenant_mismatch' });
  });

  it('not_yet_valid: before not_before by more than the clock skew', () => {
    const doc = command();
    expect(verifyDocument(doc, options({ now: at('2026-12-02T09:59:29.999Z') }))).toMatchObject({ ok: false, code: 'not_yet_valid' });
    expect(verifyDocument(doc, options({ now: at('2026-12-02T09:59:30Z') })).ok).toBe(true);
    expect(verifyDocument(doc, options({ now: at('2026-12-02T09:59:59Z'), clockSkewSeconds: 0 }))).toMatchObject({ code: 'not_yet_valid' });
  });

  it('expired: after not_after by more than the clock skew', () => {
    const doc = command();
    expect(verifyDocument(doc, options({ now: at('2026-12-02T10:15:30.001Z') }))).toMatchObject({ ok: false, code: 'expired' });
    expect(verifyDocument(doc, options({ now: at('2026-12-02T10:15:30Z') })).ok).toBe(true);
  });

  it('nonce_replayed: the same command accepted once, refused the second time', () => {
    const nonceStore = new MemoryNonceStore();
    const doc = command();
    expect(verifyDocument(doc, options({ nonceStore })).ok).toBe(true);
    expect(verifyDocument(doc, options({ nonceStore }))).toMatchObject({ ok: false, code: 'nonce_replayed' });
    expect(verifyDocument(command(), options({ nonceStore })).ok).toBe(true);
  });

  it('remembers a nonce only once everything else passed', () => {
    const nonceStore = new MemoryNonceStore();
    const doc = command();
    expect(verifyDocument(doc, options({ nonceStore, expectedTarget: 'c-0002' })).ok).toBe(false);
    expect(verifyDocument(doc, options({ nonceStore, now: at('2027-01-01T00:00:00Z') })).ok).toBe(false);
    expect(nonceStore.size).toBe(0);
    expect(verifyDocument(doc, options({ nonceStore })).ok).toBe(true);
  });

  it('keeps nonces until not_after + skew, and prune forgets them afterwards while the envelope stays refused', () => {
    const nonceStore = new MemoryNonceStore();
    const doc = command();
    expect(verifyDocument(doc, options({ nonceStore })).ok).toBe(true);
    const keepUntil = new Date(Date.parse(doc.payload.not_after) + 30_000);
    expect(nonceStore.prune(new Date(keepUntil.getTime() - 1))).toBe(0);
    expect(nonceStore.seen(doc.payload.nonce)).toBe(true);
    expect(nonceStore.prune(new Date(keepUntil.getTime() + 1))).toBe(1);
    expect(nonceStore.size).toBe(0);
    expect(verifyDocument(doc, options({ nonceStore, now: () => new Date(keepUntil.getTime() + 1) }))).toMatchObject({ code: 'expired' });
  });

  it('answers the first failing check in the documented order', () => {
    const late = at('2030-01-01T00:00:00Z');
    expect(
      verifyDocument(command({ signer: otherSigner }), options({ expectedType: 'report', expectedTarget: 'x', now: late })),
    ).toMatchObject({ code: 'key_unknown' });
    const tampered = clone(command());
    tampered.payload.target = 'x';
    expect(verifyDocument(tampered, options({ expectedType: 'report', expectedTarget: 'y', now: late }))).toMatchObject({
      code: 'signature_invalid',
    });
    expect(verifyDocument(command(), options({ expectedType: 'report', expectedTarget: 'x', now: late }))).toMatchObject({
      code: 'type_mismatch',
    });
    expect(verifyDocument(command(), options({ expectedTarget: 'x', expectedTenant: 'y', now: late }))).toMatchObject({
      code: 'target_mismatch',
    });
    expect(verifyDocument(command(), options({ expectedTenant: 'y', now: late }))).toMatchObject({ code: 'tenant_mismatch' });
  });

  it('fails closed on an invalid verifier clock or skew rather than accepting', () => {
    const doc = command();
    expect(verifyDocument(doc, options({ now: () => new Date(NaN) }))).toMatchObject({ ok: false, code: 'malformed' });
    expect(verifyDocument(doc, options({ now: at('2026-12-02T10:15:00.001Z'), clockSkewSeconds: Number.NaN }))).toMatchObject({
      code: 'expired',
    });
  });

  describe('malformed inputs', () => {
    const good = command();
    const withPayload = (p: Record<string, unknown>) => ({ payload: p, signature: good.signature });
    const cases: [string, unknown][] = [
      ['not JSON', '{"payload":'],
      ['a duplicate key in the text', JSON.stringify(good).replace('{"payload":{', '{"payload":{"op":"x",')],
      ['an array', [good]],
      ['a third member', { ...good, extra: 1 }],
      ['no signature', { payload: good.payload }],
      ['a padded signature', { ...good, signature: `${good.signature}==` }],
      ['a signature with a standard-base64 character', { ...good, signature: `+${good.signature.slice(1)}` }],
      [
        'a signature with non-zero spare bits',
        { ...good, signature: good.signature.slice(0, -1) + B64URL[B64URL.indexOf(good.signature.at(-1)!) | 1] },
      ],
      ['a 63-byte signature', { ...good, signature: toBase64url(fromBase64url(good.signature).subarray(1)) }],
      ['a payload that is an array', { payload: [], signature: good.signature }],
      ['an unknown type', withPayload({ ...good.payload, type: 'order' })],
      ['version 2', withPayload({ ...good.payload, v: 2 })],
      ['a key_id that is not 16 hex digits', withPayload({ ...good.payload, key_id: 'ABC' })],
      ['a 15-byte nonce', withPayload({ ...good.payload, nonce: toBase64url(new Uint8Array(15)) })],
      ['a timestamp with an offset', withPayload({ ...good.payload, not_after: '2026-12-02T12:00:00+02:00' })],
      ['an impossible date', withPayload({ ...good.payload, not_before: '2026-02-30T10:00:00Z' })],
      ['not_before after not_after', withPayload({ ...good.payload, not_before: '2027-01-01T00:00:00Z' })],
      ['args that are not an object', withPayload({ ...good.payload, args: 'x' })],
      ['a numeric target', withPayload({ ...good.payload, target: 1 })],
      ['a value with no JSON form', withPayload({ ...good.payload, args: { x: undefined } })],
      ['a Date inside the payload', withPayload({ ...good.payload, args: { at: new Date() } })],
      [
        'a throwing getter',
        {
          get payload() {
            throw new Error('boom');
          },
          signature: good.signature,
        },
      ],
      ['null', null],
      ['a number', 42],
    ];
    it.each(cases)('%s', (_name, input) => {
      const result = verifyDocument(input, options());
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.code).toBe('malformed');
    });
  });
});

describe('interoperability with openssl', () => {
  it('a document our signer makes verifies with openssl pkeyutl -verify -rawin', (ctx) => {
    if (OPENSSL === null) return ctx.skip('openssl is not installed (not on PATH nor in /usr/bin): cannot cross-check signatures with it');
    const dir = mkdtempSync(join(tmpdir(), 'navin-envelope-'));
    try {
      for (const impl of [nodeEd25519, nobleEd25519]) {
        const doc: SignedDocument = signDocument({ type: 'report', verdict: 'PASS', text: 'é 😀' }, createSigner(impl, SEED));
        const files = { pem: join(dir, 'manager.pem'), data: join(dir, 'canonical.bin'), sig: join(dir, 'sig.bin') };
        writeFileSync(files.pem, publicKeyToPem(signer.publicKey));
        writeFileSync(files.data, canonicalBytes(doc.payload));
        writeFileSync(files.sig, fromBase64url(doc.signature));
        const args = ['pkeyutl', '-verify', '-pubin', '-inkey', files.pem, '-rawin', '-in', files.data, '-sigfile', files.sig];
        expect(execFileSync(OPENSSL, args, { encoding: 'utf8' })).toMatch(/Signature Verified Successfully/);
        writeFileSync(files.data, canonicalBytes({ ...doc.payload, verdict: 'FAIL' }));
        expect(spawnSync(OPENSSL, args, { encoding: 'utf8' }).status).not.toBe(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
