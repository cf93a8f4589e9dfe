// The fallback inbox folder (--inbox): a signed command dropped as <name>.json is answered in
// <name>.receipt.json, written atomically. Offline, sensitive ones are refused with manager_unreachable.
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Receipt } from '../main/wire/protocol';
import { log } from './log';

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
      text = readFileSync(join(dir, f), 'utf8');
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
