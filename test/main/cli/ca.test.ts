// `navin-manager ca rotate|status` on a manager's data dir: status before any rotation says so; rotate starts one
// (a second is refused while it is under way), and status shows it waiting for the agent that holds a certificate.
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { caCommand } from '../../../main/cli/commands/ca';
import { parse, UsageError } from '../../../main/cli/usage';
import { openManager } from '../../../main/core/manager';
import { tempDir } from '../../support/temp-dir';

const dir = tempDir('navin-cli-ca-');
beforeAll(() => {
  const manager = openManager({ dataDir: dir.path, mode: 'headless' });
  try {
    const cluster = manager.clusters.create({ name: 'edge' }, 'test');
    manager.agentIdentities.issue(cluster.id, 'https://localhost:8462', 'test');
  } finally {
    manager.close();
  }
});
afterAll(() => dir.remove());

async function ca(...argv: string[]): Promise<{ status: number; stdout: string }> {
  let stdout = '';
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  try {
    const status = await caCommand.run(parse(caCommand, [...argv, '--data-dir', dir.path]));
    return { status, stdout };
  } finally {
    write.mockRestore();
  }
}

test('status before, rotate, then status names the state, the stages and the agent waited for; a second rotate is refused', async () => {
  const before = await ca('status', '--json');
  expect(JSON.parse(before.stdout)).toEqual({ rotation: null });
  const started = await ca('rotate');
  expect(started.status).toBe(0);
  expect(started.stdout).toMatch(/^rotation [0-9a-f]{12}: started \(started \S+ by cli\)$/m);
  const status = await ca('status');
  expect(status.stdout).toMatch(/^agents: 1 pending, 0 trusting both CAs, 0 renewed, 0 trusting the new CA alone$/m);
  expect(status.stdout).toMatch(/^waiting for: edge$/m);
  expect(status.stdout).toMatch(/^ {2}OFFLINE edge {2}pending {2}last seen never$/m);
  expect(status.stdout).not.toMatch(/BEGIN/);
  await expect(ca('rotate')).rejects.toMatchObject({ code: 'ca_rotation_in_progress' });
});

test('an unknown action is a usage error', () => {
  expect(() => caCommand.run(parse(caCommand, ['renew', '--data-dir', dir.path]))).toThrow(UsageError);
});
