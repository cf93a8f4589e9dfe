// The agent image, built without Docker: a valid OCI layout whose digests check out, reproducible, non-root,
// and self-contained (its root filesystem runs the agent with nothing from the host).
import { describe, expect, test } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { REPO_ROOT } from '../support/cli';
import { tempDir } from '../support/temp-dir';

const build = (out: string): string =>
  execFileSync(process.execPath, [join(REPO_ROOT, 'agent/build-image.mjs'), '--out', out], { encoding: 'utf8' }).trim();
const blob = (layout: string, digest: string): Buffer => readFileSync(join(layout, 'blobs/sha256', digest.replace('sha256:', '')));
const sha = (b: Buffer): string => `sha256:${createHash('sha256').update(b).digest('hex')}`;

describe('agent image', () => {
  // Two whole image builds (Node runtime + bundle, tar and digests) on a machine shared with other suites: a longer timeout.
  test('two builds of the same sources give the same digest, and every blob matches its digest', () => {
    const a = tempDir();
    const b = tempDir();
    try {
      const first = build(a.path);
      expect(first).toMatch(/^navin-cluster-agent@sha256:[a-f0-9]{64}$/);
      expect(build(b.path)).toBe(first);
      expect(
        readFileSync(join(a.path, 'navin-cluster-agent.oci.tar')).equals(readFileSync(join(b.path, 'navin-cluster-agent.oci.tar'))),
      ).toBe(true);

      const layout = join(a.path, 'agent-image');
      expect(JSON.parse(readFileSync(join(layout, 'oci-layout'), 'utf8'))).toEqual({ imageLayoutVersion: '1.0.0' });
      const index = JSON.parse(readFileSync(join(layout, 'index.json'), 'utf8'));
      const desc = index.manifests[0];
      expect(`navin-cluster-agent@${desc.digest}`).toBe(first);
      const manifestBlob = blob(layout, desc.digest);
      expect(sha(manifestBlob)).toBe(desc.digest);
      const manifest = JSON.parse(manifestBlob.toString());
      const configBlob = blob(layout, manifest.config.digest);
      expect(sha(configBlob)).toBe(manifest.config.digest);
      const config = JSON.parse(configBlob.toString());
      expect(config.config.User).toBe('65532:65532');
      expect(config.config.Entrypoint).toEqual(['/usr/local/bin/node', '/app/navin-agent.cjs']);
      manifest.layers.forEach((l: { digest: string; size: number }, i: number) => {
        const gz = blob(layout, l.digest);
        expect(sha(gz)).toBe(l.digest);
        expect(gz.length).toBe(l.size);
        expect(sha(gunzipSync(gz))).toBe(config.rootfs.diff_ids[i]);
      });
    } finally {
      a.remove();
      b.remove();
    }
  }, 120_000);

  test.runIf(process.getuid?.() === 0)(
    'its root filesystem alone runs the agent (chroot, as the non-root user)',
    () => {
      const out = tempDir();
      try {
        build(out.path);
        const layout = join(out.path, 'agent-image');
        const manifest = JSON.parse(
          blob(layout, JSON.parse(readFileSync(join(layout, 'index.json'), 'utf8')).manifests[0].digest).toString(),
        );
        const rootfs = join(out.path, 'rootfs');
        mkdirSync(rootfs);
        for (const l of manifest.layers)
          execFileSync('tar', ['-xzf', join(layout, 'blobs/sha256', l.digest.replace('sha256:', '')), '-C', rootfs]);
        const r = spawnSync('chroot', ['--userspec=65532:65532', rootfs, '/usr/local/bin/node', '/app/navin-agent.cjs', '--version'], {
          encoding: 'utf8',
          env: { PATH: process.env.PATH ?? '/usr/sbin:/usr/bin' },
        });
        expect(r.stderr).toBe('');
        expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
      } finally {
        out.remove();
      }
      // It builds a whole image first, as the test above does twice.
    },
    120_000,
  );
});
