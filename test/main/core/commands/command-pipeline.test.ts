// Cluster and host commands go through one pipeline: the same delivery (nothing handed to a revoked certificate)
// and the same closing receipt (a replayed nonce keeps the first execution's outcome), whichever domain runs it.
import { afterEach, expect, test } from 'vitest';
import { CoreError } from '../../../../main/core/errors';
import { testManager, type TestManager } from '../../../support/manager';

let tm: TestManager | undefined;
afterEach(() => tm?.close());

/** One command of each kind, with how each domain delivers and records it. */
function bothKinds(m: TestManager['manager']) {
  const c = m.clusters.create({ name: 'pipe-k' }, 'alice').id;
  const hc = m.clusters.create({ name: 'pipe-h', kind: 'hosts' }, 'alice').id;
  const h = m.hosts.add(hc, { name: 'p-0', address: '198.18.9.41' }, 'alice').id;
  return [
    {
      kind: 'cluster',
      id: m.commands.issue(c, 'inventory.report', {}, 'alice').id,
      deliver: (live?: () => boolean) => m.commands.deliver(c, 15, live),
      record: (r: Parameters<typeof m.commands.recordReceipt>[1]) => m.commands.recordReceipt(c, r, `agent:${c}`),
    },
    {
      kind: 'host',
      id: m.hostCommands.issueDriftScan(h, 'alice').id,
      deliver: (live?: () => boolean) => m.hostCommands.deliver(h, 15, live),
      record: (r: Parameters<typeof m.commands.recordReceipt>[1]) => m.hostCommands.recordReceipt(h, r, `agent:host:${h}`),
    },
  ];
}

test('a delivery to a revoked certificate is refused and marks nothing, for either kind of command', () => {
  tm = testManager();
  const m = tm.manager;
  for (const k of bothKinds(m)) {
    const refusal = (() => {
      try {
        k.deliver(() => false);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal, k.kind).toBeInstanceOf(CoreError);
    expect(refusal, k.kind).toMatchObject({ code: 'certificate_refused' });
    expect(m.commands.get(k.id).state, k.kind).toBe('queued');
    expect(
      k.deliver(() => true),
      k.kind,
    ).toHaveLength(1);
    expect(m.commands.get(k.id).state, k.kind).toBe('delivered');
  }
});

test("a replayed nonce's receipt closes either kind of command with the first execution's outcome, once", () => {
  tm = testManager();
  const m = tm.manager;
  for (const k of bothKinds(m)) {
    const replayed = {
      command_id: k.id,
      status: 'rejected' as const,
      code: 'nonce_replayed',
      executed_at: '2026-12-05T10:01:00Z',
      replica: 'r1',
      original: { status: 'failed' as const, code: 'first_failure', executed_at: '2026-12-05T10:00:00Z', result: { n: 1 } },
    };
    expect(k.record(replayed), k.kind).toEqual({ changed: true });
    expect(m.commands.get(k.id), k.kind).toMatchObject({ state: 'failed', code: 'first_failure', result: { n: 1 } });
    expect(k.record({ ...replayed, code: null, status: 'succeeded' }), k.kind).toEqual({ changed: false });
    expect(m.commands.get(k.id).state, k.kind).toBe('failed');
    expect(
      m.tables.commands.receipts(k.id).map((r) => [r.status, r.code]),
      k.kind,
    ).toEqual([
      ['rejected', 'nonce_replayed'],
      ['succeeded', null],
    ]);
  }
});
