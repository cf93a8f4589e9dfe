// Ed25519 signs and verifies per second, @noble/ed25519 against node:crypto, and the price of RFC 8785
// canonical JSON against plain JSON.stringify: the figures behind "noble where portable, node where fast".
import { bench, describe } from 'vitest';
import { canonicalize } from '../../main/wire/canonical-json';
import { nodeEd25519 } from '../../main/wire/ed25519-node';
import { nobleEd25519 } from '../../main/wire/ed25519-noble';

const seed = Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 1);
const publicKey = nodeEd25519.publicKey(seed);
const message = Uint8Array.from({ length: 1024 }, (_, i) => (i * 31) & 0xff);
const signature = nodeEd25519.sign(seed, message);
const nodePrepared = nodeEd25519.prepareSigner!(seed);

if (!nobleEd25519.verify(publicKey, message, signature) || !nodeEd25519.verify(publicKey, message, signature))
  throw new Error('bench fixture does not verify');

/** A ManagedComponent-like desired state of about `bytes` bytes of JSON. */
function document(bytes: number): Record<string, unknown> {
  const components: Record<string, unknown> = {};
  for (let i = 0; JSON.stringify(components).length < bytes - 120; i++) {
    components[`component-${i}`] = {
      image: `registry.internal/navin/opa@sha256:${'ab'.repeat(32).slice(0, 16)}${i}`,
      replicas: (i % 3) + 1,
      ports: [8181, 9191],
      labels: { tier: 'platform', 'é-ü': 'ñ' },
      ratio: i / 7,
    };
  }
  return { type: 'desired-state', v: 1, key_id: '0123456789abcdef', target: 'c-0001', tenant: 'acme', generation: 42, components };
}
const doc1k = document(1024);
const doc100k = document(100 * 1024);

describe('Ed25519 sign, 1 KB message', () => {
  bench('@noble/ed25519', () => {
    nobleEd25519.sign(seed, message);
  });
  bench('node:crypto (prepared KeyObject, as createSigner uses)', () => {
    nodePrepared(message);
  });
  bench('node:crypto (KeyObject built per call)', () => {
    nodeEd25519.sign(seed, message);
  });
});

describe('Ed25519 verify, 1 KB message', () => {
  bench('@noble/ed25519', () => {
    nobleEd25519.verify(publicKey, message, signature);
  });
  bench('node:crypto', () => {
    nodeEd25519.verify(publicKey, message, signature);
  });
});

describe('canonical JSON, 1 KB document', () => {
  bench('canonicalize (RFC 8785)', () => {
    canonicalize(doc1k);
  });
  bench('JSON.stringify (baseline)', () => {
    JSON.stringify(doc1k);
  });
});

describe('canonical JSON, 100 KB document', () => {
  bench('canonicalize (RFC 8785)', () => {
    canonicalize(doc100k);
  });
  bench('JSON.stringify (baseline)', () => {
    JSON.stringify(doc100k);
  });
});
