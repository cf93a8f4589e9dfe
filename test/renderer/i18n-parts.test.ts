// The dictionaries are assembled from parts (renderer/src/i18n/dictionaries.ts): the shared words in i18n/ and
// each feature's beside its screens. The merge keeps one of two equal keys silently, and a part missing from
// the list would be dead weight: so every key is defined in one part only, every part on disk is listed, and
// every part has its French twin with exactly its keys. (Where a key lives is held in i18n-keys-used.test.ts.)
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGE_PARTS, en, fr } from '../../renderer/src/i18n/dictionaries';

const SOURCE = join(__dirname, '../../renderer/src');

function partFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return partFiles(path);
    return /\.(en|fr)\.ts$/.test(e.name) ? [relative(SOURCE, path).split(sep).join('/')] : [];
  });
}

/** `i18n/errors.en.ts` → errors; `features/hosts-care/messages.fr.ts` → hosts-care. */
function partName(file: string): string {
  const shared = /^i18n\/([\w-]+)\.(en|fr)\.ts$/.exec(file);
  if (shared?.[1]) return shared[1];
  const feature = /^features\/([\w-]+)\/messages\.(en|fr)\.ts$/.exec(file);
  if (feature?.[1]) return feature[1];
  return `misplaced: ${file}`;
}

const parts = Object.entries(MESSAGE_PARTS) as [string, { en: Record<string, string>; fr: Record<string, string> }][];

describe('message parts', () => {
  it('are the files on disk, each in English and in French', () => {
    const files = partFiles(SOURCE);
    const names = [...new Set(files.map(partName))].sort();
    expect(names).toEqual(parts.map(([name]) => name).sort());
    for (const name of names) {
      const mine = files.filter((f) => partName(f) === name).map((f) => f.slice(-5));
      expect(mine.sort(), name).toEqual(['en.ts', 'fr.ts']);
    }
  });

  it('define every key once', () => {
    const where = new Map<string, string[]>();
    for (const [name, part] of parts) for (const key of Object.keys(part.en)) where.set(key, [...(where.get(key) ?? []), name]);
    expect([...where].filter(([, names]) => names.length > 1).map(([key, names]) => `${key}: ${names.join(', ')}`)).toEqual([]);
    expect(where.size).toBe(Object.keys(en).length);
    expect(Object.keys(fr).length).toBe(where.size);
  });

  it('have their French twin with exactly their keys', () => {
    const problems = parts.flatMap(([name, part]) => {
      const enKeys = Object.keys(part.en);
      const frKeys = Object.keys(part.fr);
      return [
        ...enKeys.filter((k) => !(k in part.fr)).map((k) => `${name}: ${k} has no French`),
        ...frKeys.filter((k) => !(k in part.en)).map((k) => `${name}: ${k} is French only`),
      ];
    });
    expect(problems).toEqual([]);
  });

  it('are not empty', () => {
    expect(parts.filter(([, part]) => Object.keys(part.en).length === 0).map(([name]) => name)).toEqual([]);
  });
});
