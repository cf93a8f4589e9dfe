// Randomness handed out from a pool: no two draws share bytes, across a refill too, and a draw larger than the
// pool still comes back whole and random.
import { expect, it } from 'vitest';
import { newCommandId, newNonce, randomBytes } from '../../../main/wire/random';

it('never hands out the same nonce twice across several pool refills', () => {
  const nonces = new Set(Array.from({ length: 2000 }, () => newNonce(16)));
  expect(nonces.size).toBe(2000);
});

it('returns copies that later draws do not overwrite', () => {
  const first = randomBytes(32);
  const kept = Uint8Array.from(first);
  for (let i = 0; i < 300; i++) randomBytes(64);
  expect(first).toEqual(kept);
});

it('draws more than the pool holds in one piece, not all zero', () => {
  const big = randomBytes(10_000);
  expect(big).toHaveLength(10_000);
  expect(big.some((b) => b !== 0)).toBe(true);
  expect(new Set(Array.from({ length: 500 }, () => newCommandId())).size).toBe(500);
});
