// A failed backup set read by a viewer: the manager withholds its message when it quotes what the backup tool
// printed, and the Backups tab says what was withheld instead of showing nothing.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ServiceBackupSet } from '../../preload/api';
import { BackupSetItem } from '../../renderer/src/features/hosts-care/ServiceBackupsTab';

const set = (over: Partial<ServiceBackupSet>): ServiceBackupSet => ({
  id: 'set-1',
  cluster_id: 'c-1',
  reason: 'manual',
  state: 'failed',
  code: 'command_failed',
  message: null,
  services: ['nats'],
  backups: [],
  operations: [],
  requested_by: 'alice',
  created_at: '2026-01-01T00:00:00Z',
  finished_at: '2026-01-01T00:01:00Z',
  ...over,
});

const render = (s: ServiceBackupSet): string =>
  renderToStaticMarkup(createElement(BackupSetItem, { set: s, canWrite: false, busy: false, onRestored: () => {} }));

describe('a failed backup set', () => {
  it('withheld from its reader: the code and a line saying the tool’s output is for operators and admins', () => {
    const html = render(set({ withheld: ['output'] }));
    expect(html).toContain('data-testid="service-backup-set-withheld"');
    expect(html).toContain('command_failed');
    expect(html).toContain('shown to operators and admins only');
    expect(html).not.toContain('service-backup-set-message');
  });

  it('whole: its message, and no such line', () => {
    const html = render(set({ message: 'nats: task pack failed on l-0: tar failed (2)' }));
    expect(html).toContain('tar failed (2)');
    expect(html).not.toContain('service-backup-set-withheld');
  });
});
