// An artifact download that cannot be finished fails its task with a stable code and leaves no temp file: a full
// disk (file_write_failed) and a body longer than the signed size (digest_mismatch, stopped at the size).
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, onTestFinished, test } from 'vitest';
import { fetchArtifact } from '../../../agent/node/fetch-artifact';
import { issueServerCert, testCas } from '../../support/tls-endpoints';
import { tempDir } from '../../support/temp-dir';

const blob = randomBytes(1024 * 1024);
const digest = `sha256:${createHash('sha256').update(blob).digest('hex')}`;
let url: string;
const server = (() => {
  const ca = testCas().trusted;
  const { certPem, keyPem } = issueServerCert(ca, ['127.0.0.1'], new Date(Date.now() - 60_000), new Date(Date.now() + 3_600_000));
  return createServer({ cert: certPem, key: keyPem }, (req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    if (req.url === '/endless') {
      // A mirror gone wrong: a body that never ends.
      const more = (): void => void (!res.destroyed && res.write(blob.subarray(0, 64 * 1024), () => setImmediate(more)));
      return more();
    }
    // In small pieces, as a mirror streams a large blob.
    let at = 0;
    const more = (): void => {
      while (at < blob.length) {
        const piece = blob.subarray(at, at + 16 * 1024);
        at += piece.length;
        if (!res.write(piece)) return void res.once('drain', more);
      }
      res.end();
    };
    res.on('close', () => (at = blob.length));
    more();
  });
})();

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/blob`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const task = (over: { size?: number } = {}) => ({
  id: 'fetch',
  kind: 'artifact.fetch' as const,
  url,
  digest,
  path: '/opt/x/blob',
  ca_pem: testCas().trusted.certPem,
  ...over,
});

test('the whole blob is installed when it hashes to the signed digest', async () => {
  const dir = tempDir('navin-fetch-');
  onTestFinished(dir.remove);
  await expect(fetchArtifact(task({ size: blob.length }), join(dir.path, 'blob'), 0o644)).resolves.toMatchObject({ size: blob.length });
  expect(readdirSync(dir.path)).toEqual(['blob']);
});

test('a body longer than the signed size is stopped there and refused, with no temp file left', async () => {
  const dir = tempDir('navin-fetch-');
  onTestFinished(dir.remove);
  const endless = { ...task({ size: 256 * 1024 }), url: url.replace('/blob', '/endless') };
  await expect(fetchArtifact(endless, join(dir.path, 'blob'), 0o644)).rejects.toMatchObject({ code: 'digest_mismatch' });
  expect(readdirSync(dir.path)).toEqual([]);
});

test.skipIf(process.getuid?.() !== 0)('a full disk fails the task with file_write_failed instead of taking the agent down', async () => {
  const dir = tempDir('navin-fetch-');
  onTestFinished(dir.remove);
  const small = join(dir.path, 'small');
  mkdirSync(small);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', small]);
  onTestFinished(() => void execFileSync('umount', [small]));
  await expect(fetchArtifact(task(), join(small, 'blob'), 0o644)).rejects.toMatchObject({ code: 'file_write_failed' });
  expect(readdirSync(small)).toEqual([]);
});
