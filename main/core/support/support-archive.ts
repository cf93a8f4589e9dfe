// The support archive: a tar.gz of what a support engineer needs to read a cluster's state, every text redacted
// first, file by file as whole records (redact.ts). MANIFEST.json (the last entry) lists each file with its sha256 and the replacements made by kind; it
// says `redacted: true` only when every redactor ran on every file without failing. The archive is written to a
// temp file beside its destination and renamed only when whole.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, rmSync, statSync } from 'node:fs';
import { moveIntoPlace } from '../fsutil/atomic-write';
import { once } from 'node:events';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import {
  SUPPORT_ARCHIVE_FORMAT,
  type SupportManifestFile as ManifestFile,
  type SupportManifestView as SupportManifest,
  type SupportPreviewItem as PreviewItem,
} from '../../contract/support';
import { Redactor, type RedactionInput, type RedactionRule, type TextKind } from './redact';

export const MANIFEST_FILE = 'MANIFEST.json';

/** One file of the archive before redaction; its path is redacted too (a host or user name can be in it). */
export interface SupportEntry {
  path: string;
  kind: TextKind;
  content: string;
}

export interface ArchiveOptions {
  out: string;
  redaction: RedactionInput;
  now?: Date;
  /** Replaces or extends the rules (tests of a failing redactor). */
  rules?: (defaults: RedactionRule[]) => RedactionRule[];
}

export interface ArchiveResult {
  file: string;
  bytes: number;
  sha256: string;
  manifest: SupportManifest;
}

/** What the archive will hold, named as it will be (paths redacted), before anything is built. */
export function previewArchive(entries: readonly SupportEntry[], redaction: RedactionInput): PreviewItem[] {
  const redactor = new Redactor(redaction);
  return entries.map((e) => ({
    path: redactor.redact(e.path, 'data', e.path),
    kind: e.kind,
    bytes: Buffer.byteLength(e.content),
  }));
}

export async function buildSupportArchive(entries: readonly SupportEntry[], options: ArchiveOptions): Promise<ArchiveResult> {
  const redactor = new Redactor(options.redaction, options.rules);
  const now = options.now ?? new Date();
  const pack = tar.pack();
  const tmp = join(dirname(options.out), `.${basename(options.out)}.${randomBytes(6).toString('hex')}.tmp`);
  const fileHash = createHash('sha256');
  const out = createWriteStream(tmp, { flags: 'wx', mode: 0o600 });
  const written = pipeline(
    pack,
    createGzip(),
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        fileHash.update(chunk);
        yield chunk;
      }
    },
    out,
  );
  const files: ManifestFile[] = [];
  const seen = new Set<string>();
  try {
    for (const entry of entries) {
      let path = redactor.redact(entry.path, 'data', entry.path);
      for (let n = 2; seen.has(path); n++) path = `${path}.${n}`;
      seen.add(path);
      const body = Buffer.from(await redactor.redactFileWithPreset(path, entry.content, entry.kind));
      files.push({ path, kind: entry.kind, bytes: body.length, sha256: createHash('sha256').update(body).digest('hex') });
      await addEntry(pack, path, body, now);
    }
    const manifest: SupportManifest = {
      format: SUPPORT_ARCHIVE_FORMAT,
      created_at: now.toISOString(),
      redacted: redactor.failures.length === 0,
      failures: redactor.failures,
      replacements: { ...redactor.counts },
      files,
    };
    await addEntry(pack, MANIFEST_FILE, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), now);
    pack.finalize();
    await written;
    moveIntoPlace(tmp, options.out);
    return { file: options.out, bytes: statSync(options.out).size, sha256: fileHash.digest('hex'), manifest };
  } catch (err) {
    pack.destroy();
    await written.catch(() => undefined);
    // The temp file may still be opening when the pipeline fails: remove it only once its stream has closed.
    if (!out.closed) await once(out, 'close').catch(() => undefined);
    rmSync(tmp, { force: true });
    throw err;
  }
}

function addEntry(pack: tar.Pack, name: string, body: Buffer, mtime: Date): Promise<void> {
  return new Promise((resolve, reject) => {
    pack.entry({ name, size: body.length, mode: 0o644, mtime }, body, (err) => (err ? reject(err) : resolve()));
  });
}
