// Helpers for bundle tests: a release signer, and copies of a bundle tar with one entry changed, dropped or
// added, or the file cut short: the ways a bundle is damaged or tampered with on its way into the gap.
import { createReadStream, createWriteStream, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import { createSigner, type Signer } from '../../main/wire/envelope';
import { nodeEd25519 } from '../../main/wire/ed25519-node';

export const releaseSigner = (): Signer => createSigner(nodeEd25519, nodeEd25519.generateSecretKey());

export interface TarEntry {
  name: string;
  type: string;
  body: Buffer;
}

export async function readTar(file: string): Promise<TarEntry[]> {
  const extract = tar.extract();
  const feeding = pipeline(createReadStream(file), extract);
  const entries: TarEntry[] = [];
  for await (const e of extract) {
    const chunks: Buffer[] = [];
    for await (const c of e as AsyncIterable<Buffer>) chunks.push(c);
    entries.push({ name: e.header.name, type: e.header.type ?? 'file', body: Buffer.concat(chunks) });
  }
  await feeding;
  return entries;
}

export async function writeTar(file: string, entries: TarEntry[]): Promise<void> {
  const pack = tar.pack();
  const done = pipeline(pack, createWriteStream(file));
  for (const e of entries) {
    if (e.type === 'directory') pack.entry({ name: e.name, type: 'directory' });
    else
      await new Promise<void>((resolve, reject) =>
        pack.entry({ name: e.name, size: e.body.length }, e.body, (err) => (err ? reject(err) : resolve())),
      );
  }
  pack.finalize();
  await done;
}

/** A copy of the bundle with its entries passed through `edit` (return null to drop one). */
export async function rewriteTar(
  src: string,
  dst: string,
  edit: (e: TarEntry, all: TarEntry[]) => TarEntry | TarEntry[] | null,
): Promise<void> {
  const entries = await readTar(src);
  await writeTar(
    dst,
    entries.flatMap((e) => {
      const r = edit(e, entries);
      return r === null ? [] : Array.isArray(r) ? r : [r];
    }),
  );
}

/** A copy cut after `bytes` bytes. */
export function truncatedCopy(src: string, dst: string, bytes: number): void {
  writeFileSync(dst, readFileSync(src));
  truncateSync(dst, bytes);
}
