// Shared test material for the envelope tests: fixed keys, a fixed clock, and a signed command factory.
import { nodeEd25519 } from '../../../main/wire/ed25519-node';
import { buildCommand, createSigner, signDocument, type Signer, type VerifyOptions } from '../../../main/wire/envelope';
import type { DocumentType } from '../../../main/wire/payloads';

export const SEED = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
export const OTHER_SEED = Uint8Array.from({ length: 32 }, (_, i) => 200 - i);
export const signer: Signer = createSigner(nodeEd25519, SEED);
export const otherSigner: Signer = createSigner(nodeEd25519, OTHER_SEED);
export const trustedKeys = new Map([[signer.keyId, signer.publicKey]]);

export const NOW = new Date('2026-12-02T10:00:00Z');
export const VALIDITY_S = 900;
export const TARGET = 'c-0001';
export const TENANT = 'acme';

export function command(over: { signer?: Signer; now?: Date; args?: Record<string, unknown> } = {}) {
  return signDocument(
    buildCommand({
      tenant: TENANT,
      target: TARGET,
      op: 'inventory.report',
      args: over.args ?? { depth: 1 },
      now: over.now ?? NOW,
      validitySeconds: VALIDITY_S,
    }),
    over.signer ?? signer,
  );
}

export function options<T extends DocumentType = 'command'>(over: Partial<VerifyOptions<T>> = {}): VerifyOptions<T> {
  return {
    impl: nodeEd25519,
    trustedKeys,
    expectedType: 'command' as T,
    expectedTarget: TARGET,
    expectedTenant: TENANT,
    now: () => NOW,
    ...over,
  };
}
