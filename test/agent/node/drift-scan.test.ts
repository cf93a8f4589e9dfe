// drift.scan on the agent: each managed file and unit judged as it is on disk, never followed through a symlink
// (the file itself, or a folder on its way), and nothing written.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { driftScan } from '../../../agent/node/drift-scan';
import { tempDir } from '../../support/temp-dir';

const sha = (t: string): string => createHash('sha256').update(t).digest('hex');
const entry = (t: string, command_id = 'c1') => ({ sha256: sha(t), size: t.length, command_id, written_at: '2026-12-04T00:00:00.000Z' });

describe('drift scan', () => {
  const dir = tempDir('navin-drift-scan-');
  afterAll(() => dir.remove());

  it('tells ok, modified, deleted and replaced apart, units included', () => {
    const root = dir.path;
    mkdirSync(join(root, 'etc/navin/a'), { recursive: true });
    mkdirSync(join(root, 'etc/systemd/system'), { recursive: true });
    mkdirSync(join(root, 'opt/navin/a/1'), { recursive: true });
    writeFileSync(join(root, 'etc/navin/a/ok.conf'), 'same');
    writeFileSync(join(root, 'etc/navin/a/mod.conf'), 'changed by hand');
    symlinkSync('/bin/true', join(root, 'opt/navin/a/1/bin'));
    mkdirSync(join(root, 'etc/navin/a/dir.conf'));
    writeFileSync(join(root, 'etc/systemd/system/navin-a.service'), '[Unit]\n');
    const before = readdirSync(join(root, 'etc/navin/a')).sort();
    const r = driftScan(root, {
      files: {
        '/etc/navin/a/ok.conf': entry('same'),
        '/etc/navin/a/mod.conf': entry('as written'),
        '/etc/navin/a/gone.conf': entry('x'),
        '/opt/navin/a/1/bin': entry('binary'),
        '/etc/navin/a/dir.conf': entry('y'),
      },
      units: { 'navin-a.service': entry('[Unit]\n', 'c2') },
    });
    const by = Object.fromEntries(r.items.map((i) => [i.path, i]));
    expect(by['/etc/navin/a/ok.conf']).toMatchObject({ state: 'ok', observed_sha256: sha('same'), command_id: 'c1' });
    expect(by['/etc/navin/a/mod.conf']).toMatchObject({
      state: 'modified',
      observed_sha256: sha('changed by hand'),
      expected_sha256: sha('as written'),
    });
    expect(by['/etc/navin/a/gone.conf']).toMatchObject({ state: 'deleted', observed_sha256: null });
    expect(by['/opt/navin/a/1/bin']).toMatchObject({ state: 'replaced', detail: 'a symlink to /bin/true' });
    expect(by['/etc/navin/a/dir.conf']).toMatchObject({ state: 'replaced', detail: 'not a regular file' });
    expect(by['/etc/systemd/system/navin-a.service']).toMatchObject({ kind: 'unit', state: 'ok', command_id: 'c2' });
    expect(readdirSync(join(root, 'etc/navin/a')).sort()).toEqual(before);
  });

  it('a folder on the way turned into a symlink makes the file replaced, never read through it', () => {
    const root = join(dir.path, 'b');
    mkdirSync(join(root, 'elsewhere'), { recursive: true });
    writeFileSync(join(root, 'elsewhere/x.conf'), 'as written');
    mkdirSync(join(root, 'etc/navin'), { recursive: true });
    symlinkSync(join(root, 'elsewhere'), join(root, 'etc/navin/b'));
    const r = driftScan(root, { files: { '/etc/navin/b/x.conf': entry('as written') }, units: {} });
    expect(r.items[0]).toMatchObject({ state: 'replaced', observed_sha256: null });
    expect(r.items[0]!.detail).toContain('/etc/navin/b is a symlink');
    rmSync(join(root, 'etc/navin/b'));
  });
});
