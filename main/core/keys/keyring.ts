// The manager's Ed25519 signing keys: one active key signs, older keys stay trusted until retired, and seeds
// are kept sealed by the KeyProtector. No method returns or logs a private key.
import type { Tables } from '../domain-tables';
import type { Clock } from '../clock';
import { CoreError, NotFoundError } from '../errors';
import type { Store } from '../store/store';
import type { KeyProtector } from './protector';
import type { Ed25519 } from '../../wire/ed25519';
import { keyId } from '../../wire/encoding';
import { publicKeyToPem } from '../../wire/public-key-pem';
import { createSigner, type Signer } from '../../wire/envelope';
import type { PublicKeyInfo } from '../../contract/keys';

/** A key as listed: the contract's type, the one source of its shape. */
export type { PublicKeyInfo };

export class Keyring {
  private signer: Signer;

  private constructor(
    private readonly store: Store,
    private readonly tables: Tables<'keys'>,
    private readonly protector: KeyProtector,
    private readonly impl: Ed25519,
    private readonly clock: Clock,
  ) {
    this.signer = this.loadActive();
  }

  /** Opens the keyring, creating the first key on first run. */
  static open(store: Store, tables: Tables<'keys'>, protector: KeyProtector, impl: Ed25519, clock: Clock): Keyring {
    if (tables.keys.signingKeys().length === 0) Keyring.createKey(tables, protector, impl, clock);
    return new Keyring(store, tables, protector, impl, clock);
  }

  private static createKey(tables: Tables<'keys'>, protector: KeyProtector, impl: Ed25519, clock: Clock): string {
    const seed = impl.generateSecretKey();
    const pub = impl.publicKey(seed);
    const id = keyId(pub);
    tables.keys.insertSigningKey({
      key_id: id,
      public_key: Buffer.from(pub),
      sealed_seed: protector.seal(seed),
      created_at: clock.now().toISOString(),
      retired_at: null,
    });
    seed.fill(0);
    return id;
  }

  private loadActive(): Signer {
    const live = this.tables.keys.signingKeys().filter((k) => k.retired_at === null);
    const newest = live[live.length - 1];
    if (!newest) throw new CoreError('no_signing_key', 'every signing key is retired; rotate to create a new one');
    return createSigner(this.impl, this.protector.open(newest.sealed_seed));
  }

  /** The signer of the active (newest unretired) key. */
  active(): Signer {
    return this.signer;
  }

  /** A new key signs from now on; the previous ones stay trusted until retired. Audited in the same transaction. */
  rotate(actor: string): string {
    const id = this.store.tx(() => {
      const id = Keyring.createKey(this.tables, this.protector, this.impl, this.clock);
      this.store.audit.append({ actor, action: 'key.rotate', target: id });
      return id;
    });
    this.signer = this.loadActive();
    return id;
  }

  retire(id: string, actor: string): void {
    if (id === this.signer.keyId) throw new CoreError('key_active', 'the active signing key cannot be retired; rotate first');
    this.store.tx(() => {
      if (!this.tables.keys.retireSigningKey(id, this.clock.now().toISOString())) throw new NotFoundError('live signing key', id);
      this.store.audit.append({ actor, action: 'key.retire', target: id });
    });
  }

  /** key_id → public key of every key not retired: what verifiers and agent configs trust. */
  trusted(): Map<string, Uint8Array> {
    return new Map(
      this.tables.keys
        .signingKeys()
        .filter((k) => k.retired_at === null)
        .map((k) => [k.key_id, new Uint8Array(k.public_key)]),
    );
  }

  list(): PublicKeyInfo[] {
    return this.tables.keys.signingKeys().map((k) => ({
      key_id: k.key_id,
      public_key_pem: publicKeyToPem(new Uint8Array(k.public_key)),
      created_at: k.created_at,
      retired_at: k.retired_at,
      active: k.key_id === this.signer.keyId,
    }));
  }

  /** manager.pem: the active public key, SPKI PEM. */
  managerPem(): string {
    return publicKeyToPem(this.signer.publicKey);
  }
}
