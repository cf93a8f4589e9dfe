// Queued receipts reach the manager in batches its gateway takes: one receipt too large for a request neither
// blocks the others nor stays queued forever; it goes with its outcome and a note of its result's size.
import { join } from 'node:path';
import { expect, onTestFinished, test } from 'vitest';
import { GatewayUnreachable, type GatewayClient } from '../../agent/gateway-client';
import { AgentLink, fitReceipt, receiptBatches } from '../../agent/link';
import { FileStateStore } from '../../agent/node/file-state';
import { GATEWAY_MAX_BODY, type Receipt } from '../../main/wire/protocol';
import { tempDir } from '../support/temp-dir';

const receipt = (id: string, result: unknown = { ok: true }): Receipt => ({
  command_id: id,
  status: 'succeeded',
  result,
  executed_at: new Date().toISOString(),
  replica: 'h',
});

test('a journal too large for one request is sent with its outcome, and the small receipts behind it are sent too', async () => {
  const dir = tempDir('navin-receipts-');
  onTestFinished(dir.remove);
  const taken: Receipt[] = [];
  // As the gateway does: a request body over its limit is refused 413.
  const gateway: GatewayClient = {
    commands: async () => ({ commands: [] }),
    receipts: async (rs) => {
      if (Buffer.byteLength(JSON.stringify({ receipts: rs })) > GATEWAY_MAX_BODY) throw new Error('HTTP 413 body_too_large');
      taken.push(...rs);
      return { accepted: rs.map((r) => r.command_id) };
    },
    report: async () => undefined,
    progress: async () => undefined,
    close: () => undefined,
  };
  const state = new FileStateStore(join(dir.path, 'state'));
  const journal = 'x'.repeat(GATEWAY_MAX_BODY + 1024);
  await state.update((s) => {
    s.receipts = { big: receipt('big', { text: journal }), a: receipt('a'), b: receipt('b') };
    s.unsent = ['big', 'a', 'b'];
  });
  const link = new AgentLink({ gateway, state, offlineAfterS: 60, longPollS: 1, isActive: () => true });
  await link.flushReceipts();
  expect(taken.map((r) => r.command_id)).toEqual(['big', 'a', 'b']);
  expect(taken[0]).toMatchObject({ status: 'succeeded', result: { result_too_large: { bytes: journal.length + 11 } } });
  expect(state.state.unsent).toEqual([]);
  // The agent keeps the whole result: a replay is still answered with it.
  expect((state.state.receipts.big!.result as { text: string }).text).toHaveLength(journal.length);
});

test('batches stay under the budget and keep the queue order', () => {
  const rs = Array.from({ length: 50 }, (_, i) => receipt(`r${i}`, { text: 'y'.repeat(1000) }));
  const batches = receiptBatches(rs, 10_000);
  expect(batches.flat().map((r) => r.command_id)).toEqual(rs.map((r) => r.command_id));
  for (const b of batches) expect(Buffer.byteLength(JSON.stringify(b))).toBeLessThanOrEqual(10_000);
  expect(batches.length).toBeGreaterThan(1);
  expect(fitReceipt(rs[0]!, 10_000)).toBe(rs[0]);
});

test('a rate-limited poll counts as contact: the agent stays online past offline_after_s and polls again', async () => {
  const dir = tempDir('navin-limited-');
  onTestFinished(dir.remove);
  let polls = 0;
  // The manager answers, but 429 every time (the client holds each call until Retry-After; here 50 ms).
  const gateway: GatewayClient = {
    commands: async () => {
      polls++;
      await new Promise((r) => setTimeout(r, 50));
      throw new GatewayUnreachable('the gateway answered 429: rate_limited', 429, 1);
    },
    receipts: async () => ({ accepted: [] }),
    report: async () => undefined,
    progress: async () => undefined,
    close: () => undefined,
  };
  const state = new FileStateStore(join(dir.path, 'state'));
  const link = new AgentLink({ gateway, state, offlineAfterS: 0.3, longPollS: 1, isActive: () => true });
  link.start({ run: async () => null });
  try {
    await new Promise((r) => setTimeout(r, 800));
    expect(polls).toBeGreaterThan(3);
    expect(link.isOffline()).toBe(false);
  } finally {
    await link.stop();
  }
});
