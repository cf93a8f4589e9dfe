// An agent's last-seen record is written at most once a second for the time alone, and at once when its version,
// leader replica or certificate changes.
import { expect, test } from 'vitest';
import { lastSeenWrites, type LastSeenWrites, type Sighting } from '../../../../main/core/clusters/last-seen-writes';

/** Whether `note` wrote this sighting. */
const wrote = (w: LastSeenWrites, key: string, nowMs: number, s: Sighting): boolean => {
  let called = false;
  w.note(key, nowMs, s, () => (called = true));
  return called;
};

const status = (over: Partial<{ agent_version: string | null; leader_replica: string | null; certificate_serial: string }> = {}) => ({
  cluster_id: 'c1',
  last_seen: '',
  agent_version: '1.0.0',
  leader_replica: 'r1',
  certificate_serial: '01',
  ...over,
});

test('the first sighting of a cluster is written, the next within a second is not, the one a second later is', () => {
  const w = lastSeenWrites(1000);
  expect(wrote(w, 'c1', 10_000, status())).toBe(true);
  expect(wrote(w, 'c1', 10_400, status())).toBe(false);
  expect(wrote(w, 'c1', 10_999, status())).toBe(false);
  expect(wrote(w, 'c1', 11_000, status())).toBe(true);
  expect(wrote(w, 'c2', 11_001, status())).toBe(true);
});

test('a new leader, version or certificate is written at once', () => {
  const w = lastSeenWrites(1000);
  wrote(w, 'c1', 0, status());
  expect(wrote(w, 'c1', 10, status({ leader_replica: 'r2' }))).toBe(true);
  expect(wrote(w, 'c1', 20, status({ leader_replica: 'r2', agent_version: '1.1.0' }))).toBe(true);
  expect(wrote(w, 'c1', 30, status({ leader_replica: 'r2', agent_version: '1.1.0', certificate_serial: '02' }))).toBe(true);
});

test("a sighting without a leader or version (a receipt's) keeps the stored ones: no write for them", () => {
  const w = lastSeenWrites(1000);
  wrote(w, 'c1', 0, status());
  expect(wrote(w, 'c1', 10, status({ leader_replica: null, agent_version: null }))).toBe(false);
  expect(wrote(w, 'c1', 20, status())).toBe(false);
});

test('a clock set back is written at once, so the stored time never stays ahead', () => {
  const w = lastSeenWrites(1000);
  wrote(w, 'c1', 5_000, status());
  expect(wrote(w, 'c1', 4_000, status())).toBe(true);
});

test("a host's sightings (no leader) are keyed apart from a cluster's and follow the same rule", () => {
  const w = lastSeenWrites(1000);
  expect(wrote(w, 'host:h1', 0, { agent_version: '1.0.0', certificate_serial: '0a' })).toBe(true);
  expect(wrote(w, 'host:h1', 500, { agent_version: '1.0.0', certificate_serial: '0a' })).toBe(false);
  expect(wrote(w, 'host:h1', 600, { agent_version: null, certificate_serial: '0a' })).toBe(false);
  expect(wrote(w, 'host:h1', 700, { agent_version: '1.0.1', certificate_serial: '0a' })).toBe(true);
  expect(wrote(w, 'c1', 700, status())).toBe(true);
});

test('a write that fails is not counted: the next sighting writes again', () => {
  const w = lastSeenWrites(1000);
  expect(() =>
    w.note('c1', 0, status(), () => {
      throw new Error('SQLITE_BUSY');
    }),
  ).toThrow('SQLITE_BUSY');
  expect(wrote(w, 'c1', 10, status())).toBe(true);
  expect(wrote(w, 'c1', 20, status())).toBe(false);
});

test('agents not written within the interval are forgotten, and their next sighting is written as before', () => {
  const w = lastSeenWrites(1000);
  for (let i = 0; i < 500; i++) wrote(w, `gone-${i}`, 0, status());
  expect(w.tracked).toBe(500);
  wrote(w, 'c1', 999, status());
  expect(w.tracked).toBe(501);
  expect(wrote(w, 'c1', 1500, status())).toBe(false);
  // A second on, the agents that went away are dropped; the one still in touch is kept.
  expect(w.tracked).toBe(1);
  expect(wrote(w, 'gone-1', 1600, status())).toBe(true);
});
