// The fallback inbox folder (--inbox): a signed command dropped as <name>.json is answered in
// <name>.receipt.json, written atomically. Offline, sensitive ones are refused with manager_unreachable. Drop a
// file by renaming it into place; one that is not JSON yet is left a few seconds to be finished.
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Receipt } from '../main/wire/protocol';
import { log } from './log';

/** How long a file that is not JSON yet is given to be finished (written without a rename into place). */
export const SETTLE_MS = 5000;

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export async function scanInbox(dir: string, run: (text: string) => Promise<Receipt | null>): Promise<number> {
  let handled = 0;
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const f of files.sort()) {
    if (!f.endsWith('.json') || f.endsWith('.receipt.json') || f.startsWith('.')) continue;
    const base = f.slice(0, -'.json'.length);
    const out = join(dir, `${base}.receipt.json`);
    if (existsSync(out)) continue;
    let text: string;
    try {
      const st = statSync(join(dir, f));
      if (!st.isFile()) continue; // a FIFO would block the agent in the read
      text = readFileSync(join(dir, f), 'utf8');
      // A file being copied in may be caught half-written: it is read again at a later scan, not refused.
      if (Date.now() - st.mtimeMs < SETTLE_MS && !parses(text)) continue;
    } catch {
      continue;
    }
    const receipt = (await run(text)) ?? {
      command_id: '',
      status: 'rejected',
      code: 'malformed',
      message: 'not a signed command',
      executed_at: new Date().toISOString(),
      replica: '',
    };
    const tmp = join(dir, `.${base}.receipt.json.tmp`);
    writeFileSync(tmp, `${JSON.stringify(receipt, null, 2)}\n`, { mode: 0o640 });
    renameSync(tmp, out);
    log('inbox.answered', { file: f, status: receipt.status, code: receipt.code ?? null });
    handled += 1;
  }
  return handled;
}
