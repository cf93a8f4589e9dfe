// The isolated side's trust in release keys: the public keys an admin added (from the PEM exported on the
// connected side) are the only ones an offline bundle may be signed by. The manager's own signing keys are
// refused here, so a command key can never pass for a release key.
import type { Tables } from '../domain-tables';
import type { Clock } from '../clock';
import { ConflictError, CoreError, NotFoundError } from '../errors';
import type { Keyring } from '../keys/keyring';
import type { Store } from '../store/store';
import { keyId } from '../../wire/encoding';
import { isWireError } from '../../wire/errors';
import { publicKeyFromPem, publicKeyToPem } from '../../wire/public-key-pem';
import type { TrustedReleaseKey } from '../../contract/mirror';

export class ReleaseKeys {
  constructor(
    private readonly store: Store,
    private readonly tables: Tables<'mirror'>,
    private readonly keyring: Keyring,
    private readonly clock: Clock,
  ) {}

  list(): TrustedReleaseKey[] {
    return this.tables.mirror.releaseKeys().map((k) => ({
      key_id: k.key_id,
      label: k.label,
      public_key_pem: publicKeyToPem(new Uint8Array(k.public_key)),
      added_at: k.added_at,
      added_by: k.added_by,
    }));
  }

  /** key_id → public key: what a bundle's signature is checked against. */
  trusted(): Map<string, Uint8Array> {
    return new Map(this.tables.mirror.releaseKeys().map((k) => [k.key_id, new Uint8Array(k.public_key)]));
  }

  /** beforeCommit runs in the trust's transaction (a four-eyes approval spent with it). */
  trust(publicKeyPem: string, label: string | null | undefined, actor: string, beforeCommit?: () => void): TrustedReleaseKey {
    let pub: Uint8Array;
    try {
      pub = publicKeyFromPem(publicKeyPem);
    } catch (error) {
      throw new CoreError(
        'release_key_invalid',
        isWireError(error) ? `the release public key: ${error.message}` : 'the release public key is not an Ed25519 PEM',
      );
    }
    const id = keyId(pub);
    if (this.keyring.list().some((k) => k.key_id === id))
      throw new ConflictError(
        'release_key_is_manager_key',
        'this is one of the manager’s own signing keys; a release key must be a separate key (navin-manager release-key create)',
      );
    const name = label?.trim() ? label.trim().slice(0, 100) : 'release';
    const row = { key_id: id, public_key: Buffer.from(pub), label: name, added_at: this.clock.now().toISOString(), added_by: actor };
    this.store.tx(() => {
      if (!this.tables.mirror.insertReleaseKey(row)) throw new ConflictError('release_key_trusted', `release key ${id} is already trusted`);
      this.store.audit.append({ actor, action: 'release_key.trust', cluster_id: null, target: id, details: { label: name } });
      beforeCommit?.();
    });
    return { key_id: id, label: name, public_key_pem: publicKeyToPem(pub), added_at: row.added_at, added_by: actor };
  }

  untrust(id: string, actor: string): void {
    this.store.tx(() => {
      if (!this.tables.mirror.deleteReleaseKey(id)) throw new NotFoundError('trusted release key', id);
      this.store.audit.append({ actor, action: 'release_key.untrust', cluster_id: null, target: id, details: {} });
    });
  }
}
