// Imports survive a crash in the record: an import left running by a process that is gone is marked
// interrupted when the manager opens again; one of a live process is left alone.
import { spawnSync } from 'node:child_process';
import { afterAll, expect, test } from 'vitest';
import { openManager } from '../../../../main/core/manager';
import { tempDir } from '../../../support/temp-dir';

const dir = tempDir('navin-manager-');
afterAll(() => dir.remove());

test('an import of a dead process is failed with import_interrupted at the next start; a live one stays running', () => {
  const dead = spawnSync('true').pid!;
  const first = openManager({ dataDir: dir.path, mode: 'headless' });
  const row = (id: string, pid: number) => ({
    id,
    bundle_file: '/media/usb/bundle.tar',
    bundle_id: null,
    key_id: null,
    mirror_url: 'https://mirror.internal',
    state: 'running' as const,
    code: null,
    message: null,
    result: null,
    started_by: 'ada',
    started_at: '2026-12-01T10:00:00.000Z',
    finished_at: null,
    pid,
  });
  first.tables.mirror.insertImport(row('gone', dead));
  first.tables.mirror.insertImport(row('live', process.pid));
  first.close();

  const again = openManager({ dataDir: dir.path, mode: 'headless' });
  try {
    expect(again.mirror.getImport('gone')).toMatchObject({ state: 'failed', code: 'import_interrupted' });
    expect(again.mirror.getImport('live')).toMatchObject({ state: 'running' });
  } finally {
    again.close();
  }
});
