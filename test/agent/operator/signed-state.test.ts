// What the operator believes: the stored desired state only when it verifies against the identity Secret's
// manager key and signed config; each way it does not is refused with its own reason.
import { describe, expect, test } from 'vitest';
import { randomBytes } from 'node:crypto';
import { verifySignedState } from '../../../agent/operator/signed-state';
import { createSigner, signDocument } from '../../../main/wire/envelope';
import { nodeEd25519 } from '../../../main/wire/ed25519-node';
import { toBase64url } from '../../../main/wire/encoding';
import { publicKeyToPem } from '../../../main/wire/public-key-pem';

const manager = createSigner(nodeEd25519, randomBytes(32));
const other = createSigner(nodeEd25519, randomBytes(32));
const common = { target: 'urn:navin:cluster:c1', tenant: 't1' };
const config = (signer = manager) =>
  JSON.stringify(
    signDocument(
      {
        type: 'agent-config',
        cluster_id: 'c1',
        ...common,
        namespace: 'navin-platform',
        gateway_url: 'https://manager.invalid:8462',
        server_name: 'manager',
        trusted_key_ids: [signer.keyId],
        trusted_keys: { [signer.keyId]: toBase64url(signer.publicKey) },
        client_certificate_serial: '01',
        issued_at: new Date().toISOString(),
        offline_after_s: 60,
        redelivery_s: 15,
        long_poll_s: 30,
        clock_skew_s: 30,
        lease_duration_s: 15,
      } as never,
      signer,
    ),
  );
const desired = (signer = manager, target = common.target) =>
  signDocument(
    {
      type: 'desired-state',
      ...common,
      target,
      namespace: 'navin-platform',
      generation: 3,
      components: { kv: { component: 'etcd', version: '3.5.16' } },
      issued_at: new Date().toISOString(),
    } as never,
    signer,
  );
const state = (doc: unknown) => JSON.stringify({ desired_state: doc });
const pem = publicKeyToPem(manager.publicKey);

describe('the signed state the operator acts on', () => {
  test('a desired state signed by the manager for this cluster gives its components', () => {
    const v = verifySignedState(pem, config(), state(desired()));
    expect(v).toMatchObject({ ok: true, desired: { generation: 3, components: { kv: { component: 'etcd' } } } });
  });

  test('a stored desired state whose components were edited is refused as SignatureInvalid', () => {
    const doc = desired();
    const tampered = { ...doc, payload: { ...(doc.payload as object), components: { kv: { component: 'etcd', version: '9.9.9' } } } };
    expect(verifySignedState(pem, config(), state(tampered))).toMatchObject({ ok: false, reason: 'SignatureInvalid' });
  });

  test('a desired state signed by another key, or for another cluster, is refused', () => {
    expect(verifySignedState(pem, config(), state(desired(other)))).toMatchObject({ ok: false, reason: 'SignatureInvalid' });
    expect(verifySignedState(pem, config(), state(desired(manager, 'urn:navin:cluster:c2')))).toMatchObject({
      ok: false,
      reason: 'SignatureInvalid',
    });
  });

  test('a config.json not signed by manager.pem is refused, so a swapped key cannot vouch for itself', () => {
    expect(verifySignedState(pem, config(other), state(desired(other)))).toMatchObject({ ok: false, reason: 'SignatureInvalid' });
  });

  test('no manager key, or no stored desired state yet, each says so', () => {
    expect(verifySignedState(undefined, config(), state(desired()))).toMatchObject({ ok: false, reason: 'ManagerKeyMissing' });
    expect(verifySignedState('not a key', config(), state(desired()))).toMatchObject({ ok: false, reason: 'ManagerKeyMissing' });
    expect(verifySignedState(pem, config(), state(null))).toMatchObject({ ok: false, reason: 'DesiredStateMissing' });
  });
});
