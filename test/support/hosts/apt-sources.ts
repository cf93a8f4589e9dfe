// The Debian 12 mirror this machine's apt uses, as one-line sources for mmdebstrap, so the test root file
// system comes from the same place (and the same snapshot or local mirror) as the machine's own packages.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const HOST_SUITE = 'bookworm';
const SUITES = new Set([HOST_SUITE, `${HOST_SUITE}-updates`, `${HOST_SUITE}-security`]);

interface Entry {
  uri: string;
  suite: string;
  signedBy?: string;
}

/** Debian entries of a deb822 `.sources` file. */
export function parseDeb822(text: string): Entry[] {
  const entries: Entry[] = [];
  for (const stanza of text.split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    let last = '';
    for (const line of stanza.split('\n')) {
      if (line.startsWith('#') || !line.trim()) continue;
      if (/^\s/.test(line) && last) {
        fields.set(last, `${fields.get(last)}\n${line.trim()}`);
        continue;
      }
      const i = line.indexOf(':');
      if (i < 0) continue;
      last = line.slice(0, i).trim().toLowerCase();
      fields.set(last, line.slice(i + 1).trim());
    }
    if (fields.get('enabled')?.toLowerCase() === 'no') continue;
    if (!(fields.get('types') ?? '').split(/\s+/).includes('deb')) continue;
    if (!(fields.get('components') ?? '').split(/\s+/).includes('main')) continue;
    const signedBy = fields.get('signed-by');
    for (const uri of (fields.get('uris') ?? '').split(/\s+/).filter(Boolean))
      for (const suite of (fields.get('suites') ?? '').split(/\s+/).filter(Boolean)) entries.push({ uri, suite, signedBy });
  }
  return entries;
}

/** Debian entries of a one-line `sources.list`. */
export function parseOneLine(text: string): Entry[] {
  const entries: Entry[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    const m = /^deb\s+(?:\[([^\]]*)\]\s+)?(\S+)\s+(\S+)\s+(.+)$/.exec(line);
    if (!m || !m[4]!.split(/\s+/).includes('main')) continue;
    const signedBy = /(?:^|\s)signed-by=(\S+)/.exec(m[1] ?? '')?.[1];
    entries.push({ uri: m[2]!, suite: m[3]!, signedBy });
  }
  return entries;
}

/**
 * The `deb …` lines for Debian 12 main among the given entries. A third-party repository that also names
 * its suite "bookworm" is left out when it is signed by a key other than Debian's.
 */
export function debianLines(entries: Entry[]): string[] {
  const lines = entries
    .filter((e) => SUITES.has(e.suite))
    .filter((e) => !e.signedBy || e.signedBy.includes('debian-archive-keyring'))
    .map((e) => `deb ${e.signedBy ? `[signed-by=${e.signedBy}] ` : ''}${e.uri} ${e.suite} main`);
  return [...new Set(lines)];
}

/** The machine's own Debian 12 sources; empty when it has none (mmdebstrap then uses Debian's default mirror). */
export function hostDebianSources(etcApt = '/etc/apt'): string[] {
  const entries: Entry[] = [];
  const read = (p: string) => {
    try {
      return readFileSync(p, 'utf8');
    } catch {
      return '';
    }
  };
  entries.push(...parseOneLine(read(join(etcApt, 'sources.list'))));
  let names: string[] = [];
  try {
    names = readdirSync(join(etcApt, 'sources.list.d')).sort();
  } catch {
    // no sources.list.d
  }
  for (const n of names) {
    if (n.endsWith('.sources')) entries.push(...parseDeb822(read(join(etcApt, 'sources.list.d', n))));
    else if (n.endsWith('.list')) entries.push(...parseOneLine(read(join(etcApt, 'sources.list.d', n))));
  }
  return debianLines(entries);
}
