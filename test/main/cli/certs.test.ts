// `navin-manager certs list` on a manager's data dir: the certificates its CAs issued, the soonest to expire first,
// the one in use under 14 days marked EXPIRING; --json gives the API's items; --expiring-within filters; exit 0,
// and 2 for a bad number of days.
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { certsCommand } from '../../../main/cli/commands/certs';
import { parse, UsageError } from '../../../main/cli/usage';
import type { FleetCertificate } from '../../../main/contract/certificates';
import { openManager } from '../../../main/core/manager';
import { addCluster } from '../core/certificates/certificates-fixture';
import { tempDir } from '../../support/temp-dir';

const dir = tempDir('navin-cli-certs-');
let soon: string;
let later: string;

beforeAll(() => {
  // Real certificates of the manager's own CA, one of them issued for 10 days: near expiry by the system clock.
  const manager = openManager({ dataDir: dir.path, mode: 'headless' });
  try {
    const cluster = addCluster(manager.store, 'edge');
    later = manager.ca.issueClient(cluster).serial;
    soon = manager.ca.issueServer('gateway', ['gw.example'], 10).serial;
  } finally {
    manager.close();
  }
});
afterAll(() => dir.remove());

/** The command run in this process, its stdout captured. */
async function certs(...argv: string[]): Promise<{ status: number; stdout: string }> {
  let stdout = '';
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  try {
    const status = await certsCommand.run(parse(certsCommand, ['list', '--data-dir', dir.path, ...argv]));
    return { status, stdout };
  } finally {
    write.mockRestore();
  }
}

test('list prints a table, the soonest first, the one under 14 days marked EXPIRING and no other', async () => {
  const { status, stdout } = await certs();
  expect(status).toBe(0);
  const lines = stdout.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^\s+NOT AFTER\s+LEFT\s+KIND\s+STATE\s+ISSUER\s+SERIAL\s+SUBJECT\s+WHERE$/);
  const rows = lines.slice(1);
  const soonRow = rows.findIndex((l) => l.includes(soon.toLowerCase().replace(/^0+/, '')));
  const laterRow = rows.findIndex((l) => l.includes(later.toLowerCase().replace(/^0+/, '')));
  expect(soonRow).toBe(0);
  expect(laterRow).toBeGreaterThan(soonRow);
  expect(rows[soonRow]).toMatch(/^EXPIRING\s+\S+\s+(9|10)d\s+gateway\s+issued\s+manager-ca\s/);
  expect(rows.filter((l) => l.startsWith('EXPIRING'))).toHaveLength(1);
  expect(rows[laterRow]).toMatch(/^\s+\S+\s+39[67]d\s+agent\s+issued\s+manager-ca\s/);
  expect(stdout).not.toMatch(/PRIVATE KEY/);
});

test('--json gives the items as the API does; --expiring-within keeps those due within the days', async () => {
  const all = JSON.parse((await certs('--json')).stdout) as { items: FleetCertificate[] };
  expect(all.items[0]).toMatchObject({ kind: 'gateway', subject: 'gw.example', expiring: true, issuer: { ca: 'manager' } });
  expect(all.items.filter((c) => c.expiring)).toHaveLength(1);
  const within = JSON.parse((await certs('--json', '--expiring-within', '14')).stdout) as { items: FleetCertificate[] };
  expect(within.items.map((c) => c.kind)).toEqual(['gateway']);
  await expect(certs('--expiring-within', 'soon')).rejects.toBeInstanceOf(UsageError);
  await expect(certs('--expiring-within', '-3')).rejects.toBeInstanceOf(UsageError);
});
