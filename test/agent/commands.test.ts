// The command runner's exactly-once rule beyond the nonces: a command whose receipt is kept is a replay even
// when its nonce was dropped, and the durable state stays bounded (a ConfigMap holds 1 MiB).
import { randomBytes } from 'node:crypto';
import { expect, onTestFinished, test } from 'vitest';
import { CommandRunner } from '../../agent/commands';
import type { CommonConfig } from '../../agent/identity';
import { FileStateStore, type NodeState } from '../../agent/node/file-state';
import { RECEIPT_KEEP_MS, pruneState, type AgentStateBase } from '../../agent/state';
import { nodeEd25519 } from '../../main/wire/ed25519-node';
import { buildCommand, createSigner, signDocument } from '../../main/wire/envelope';
import type { Receipt } from '../../main/wire/protocol';
import { tempDir } from '../support/temp-dir';

function setup() {
  const dir = tempDir('navin-runner-');
  onTestFinished(dir.remove);
  const signer = createSigner(nodeEd25519, randomBytes(32));
  const state = new FileStateStore(dir.path);
  let runs = 0;
  const runner = new CommandRunner<NodeState>({
    identity: {
      config: { target: 'host-1', tenant: 'ops', clock_skew_s: 60 } as CommonConfig,
      trustedKeys: new Map([[signer.keyId, signer.publicKey]]),
      certPem: '',
      keyPem: '',
      caPem: '',
    },
    state,
    executor: {
      operations: ['noop'],
      sensitive: new Set(),
      prepare: () => ({ ok: true }),
      execute: async () => ({ run: ++runs }),
    },
    replica: 'host-1',
    isOffline: () => false,
  });
  const command = () => signDocument(buildCommand({ tenant: 'ops', target: 'host-1', op: 'noop', validitySeconds: 900 }), signer);
  return { state, runner, command, runs: () => runs };
}

test('a command whose nonce was dropped but whose receipt is kept is answered nonce_replayed, not run again', async () => {
  const { state, runner, command, runs } = setup();
  const envelope = command();
  expect(await runner.run(envelope, 'gateway')).toMatchObject({ status: 'succeeded', result: { run: 1 } });
  // A wall clock stepped past the command's expiry drops its nonce at the next write; stepped back, the envelope
  // verifies again.
  await state.update((s) => void (s.nonces = {}));
  expect(Object.keys(state.state.nonces)).toEqual([]);
  const again = await runner.run(envelope, 'gateway');
  expect(again).toMatchObject({ status: 'rejected', code: 'nonce_replayed', original: { status: 'succeeded', result: { run: 1 } } });
  expect(runs()).toBe(1);
});

const receipt = (id: string, executedAt: number): Receipt => ({
  command_id: id,
  status: 'succeeded',
  executed_at: new Date(executedAt).toISOString(),
  replica: 'r',
});

test('sent receipts past their keep are pruned, unsent ones are kept whatever their age', () => {
  const now = Date.parse('2026-12-05T12:00:00Z');
  const old = now - RECEIPT_KEEP_MS - 1;
  const s: AgentStateBase = {
    nonces: {},
    receipts: { sent: receipt('sent', old), unsent: receipt('unsent', old), recent: receipt('recent', now - 3_600_000) },
    unsent: ['unsent'],
  };
  pruneState(s, now);
  expect(Object.keys(s.receipts).sort()).toEqual(['recent', 'unsent']);
});

test('a stream of commands leaves a bounded state once their receipts are past their keep', async () => {
  const { state, runner, command } = setup();
  for (let i = 0; i < 20; i++) await runner.run(command(), 'gateway');
  expect(Object.keys(state.state.receipts)).toHaveLength(20);
  // Sent, and a week later: the next write prunes them.
  await state.update((s) => {
    s.unsent = [];
    for (const r of Object.values(s.receipts)) r.executed_at = new Date(Date.now() - RECEIPT_KEEP_MS - 60_000).toISOString();
  });
  expect(Object.keys(state.state.receipts)).toHaveLength(0);
});

test('a nonce kept past the year 9999 is kept: times are compared as numbers, not as text', () => {
  const s: AgentStateBase = {
    nonces: { far: new Date(8.64e15).toISOString(), past: '2020-01-01T00:00:00.000Z' },
    receipts: {},
    unsent: [],
  };
  expect(s.nonces.far!.startsWith('+')).toBe(true);
  pruneState(s, Date.parse('2026-12-05T12:00:00Z'));
  expect(Object.keys(s.nonces)).toEqual(['far']);
});
