// The inbox folder beside the gateway: one scan at a time, a half-copied file read again later rather than
// refused, and a file whose signature did not verify answered in the folder only, never to the manager.
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, onTestFinished, test } from 'vitest';
import type { GatewayClient } from '../../agent/gateway-client';
import { scanInbox } from '../../agent/inbox';
import { AgentLink } from '../../agent/link';
import { FileStateStore } from '../../agent/node/file-state';
import type { Receipt } from '../../main/wire/protocol';
import { tempDir } from '../support/temp-dir';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const receipt = (id: string, over: Partial<Receipt> = {}): Receipt => ({
  command_id: id,
  status: 'succeeded',
  executed_at: new Date().toISOString(),
  replica: 'h',
  ...over,
});

function link(run: (text: string) => Promise<Receipt | null>) {
  const dir = tempDir('navin-inbox-');
  onTestFinished(dir.remove);
  const sent: Receipt[] = [];
  const gateway: GatewayClient = {
    commands: async () => (await sleep(100), { commands: [] }),
    receipts: async (rs) => (sent.push(...rs), { accepted: rs.map((r) => r.command_id) }),
    report: async () => undefined,
    progress: async () => undefined,
    close: () => undefined,
  };
  const inbox = join(dir.path, 'inbox');
  const l = new AgentLink({
    gateway,
    state: new FileStateStore(join(dir.path, 'state')),
    offlineAfterS: 60,
    longPollS: 1,
    isActive: () => true,
    inbox,
  });
  let calls = 0;
  l.start({ run: (text) => (calls++, run(text as string)) });
  onTestFinished(() => l.stop());
  return { inbox, sent, calls: () => calls };
}

test('a command longer than the scan interval is run once and its receipt file keeps its outcome', async () => {
  const { inbox, sent, calls } = link(async () => (await sleep(2500), receipt('slow')));
  mkdirSync(inbox);
  writeFileSync(join(inbox, 'slow.json'), '{}');
  await sleep(4200);
  expect(calls()).toBe(1);
  expect(JSON.parse(readFileSync(join(inbox, 'slow.receipt.json'), 'utf8'))).toMatchObject({ command_id: 'slow', status: 'succeeded' });
  expect(sent.map((r) => r.command_id)).toEqual(['slow']);
}, 10_000);

test('a refusal given before the signature verified is answered in the inbox and not sent to the manager', async () => {
  const { inbox, sent } = link(async () => receipt('pending-on-the-manager', { status: 'rejected', code: 'signature_invalid' }));
  mkdirSync(inbox);
  writeFileSync(join(inbox, 'forged.json'), '{}');
  await sleep(1800);
  expect(JSON.parse(readFileSync(join(inbox, 'forged.receipt.json'), 'utf8'))).toMatchObject({ code: 'signature_invalid' });
  expect(sent).toEqual([]);
}, 10_000);

test('a file not yet JSON is left for a later scan while fresh, and refused as malformed once it has settled', async () => {
  const dir = tempDir('navin-inbox-');
  onTestFinished(dir.remove);
  const file = join(dir.path, 'big-plan.json');
  writeFileSync(file, '{"payload": {"command_id": "half');
  const run = async (): Promise<Receipt | null> => null;
  expect(await scanInbox(dir.path, run)).toBe(0);
  expect(existsSync(join(dir.path, 'big-plan.receipt.json'))).toBe(false);
  // Still not JSON a minute on: not a copy in progress.
  const past = new Date(Date.now() - 60_000);
  utimesSync(file, past, past);
  expect(await scanInbox(dir.path, run)).toBe(1);
  expect(JSON.parse(readFileSync(join(dir.path, 'big-plan.receipt.json'), 'utf8'))).toMatchObject({ code: 'malformed' });
});
