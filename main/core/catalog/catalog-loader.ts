// Reads catalog descriptors (YAML), validates each against the schema and the cross-checks, and either returns
// the catalog or refuses it with every problem named by file, path (and line) and reason.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import type { CatalogProblem } from '../../contract/catalog';
import { CoreError } from '../errors';
import { Catalog } from './catalog';
import { Descriptor, type CatalogDescriptor } from './catalog-schema';
import { crossCheckCatalog, crossCheckDescriptor, type Path } from './catalog-cross-checks';

export interface CatalogFile {
  /** The file name, e.g. etcd.yaml (what problems are reported against). */
  file: string;
  text: string;
}

/** A problem of an invalid catalog, as the API lists them. */
export type { CatalogProblem };

export class CatalogError extends CoreError {
  constructor(readonly problems: CatalogProblem[]) {
    super('catalog_invalid', `the catalog is invalid: ${problems.map(describeProblem).join('; ')}`, { problems });
    this.name = 'CatalogError';
  }
}

export const describeProblem = (p: CatalogProblem): string =>
  `${p.file}${p.path ? `: ${p.path}` : ''}${p.line ? ` (line ${p.line})` : ''}: ${p.reason}`;

export function formatPath(path: Path): string {
  return path.reduce<string>((s, part) => (typeof part === 'number' ? `${s}[${part}]` : s ? `${s}.${part}` : part), '');
}

/** The line of the deepest node of the YAML document that the path reaches. */
function lineOf(doc: ReturnType<typeof parseDocument>, counter: LineCounter, path: Path): number | null {
  let node: unknown = doc.contents;
  let found: Node | null = (node as Node) ?? null;
  for (const part of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => (p.key as { value?: unknown })?.value === part);
      if (!pair) break;
      found = (pair.key as Node) ?? found;
      node = pair.value;
      if (node && typeof node === 'object' && 'range' in node) found = node as Node;
    } else if (isSeq(node) && typeof part === 'number') {
      node = node.items[part];
      if (!node) break;
      found = node as Node;
    } else break;
  }
  const start = found?.range?.[0];
  return start === undefined ? null : counter.linePos(start).line;
}

/** Every problem of one file: YAML syntax, then schema, then the descriptor's own cross-checks. */
function parseFile(f: CatalogFile): { desc: CatalogDescriptor | null; problems: CatalogProblem[]; lineAt: (path: Path) => number | null } {
  const counter = new LineCounter();
  const doc = parseDocument(f.text, { lineCounter: counter, uniqueKeys: true, prettyErrors: false });
  const lineAt = (path: Path): number | null => lineOf(doc, counter, path);
  if (doc.errors.length > 0)
    return {
      desc: null,
      lineAt,
      problems: doc.errors.map((e) => ({
        file: f.file,
        path: '',
        line: e.linePos?.[0]?.line ?? null,
        reason: `not valid YAML: ${e.message.split('\n')[0]}`,
      })),
    };
  const parsed = Descriptor.safeParse(doc.toJS({ maxAliasCount: 100 }));
  if (!parsed.success)
    return {
      desc: null,
      lineAt,
      problems: parsed.error.issues.map((issue) => {
        const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
        const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
        const full = keys.length === 1 ? [...path, keys[0]!] : path;
        return { file: f.file, path: formatPath(full), line: lineOf(doc, counter, full), reason: issue.message };
      }),
    };
  const problems = crossCheckDescriptor(parsed.data, f.file).map((p) => ({
    file: f.file,
    path: formatPath(p.path),
    line: lineOf(doc, counter, p.path),
    reason: p.reason,
  }));
  return { desc: parsed.data, problems, lineAt };
}

/** Validates the files as one catalog; throws CatalogError listing every problem found. */
export function parseCatalog(files: CatalogFile[]): Catalog {
  const problems: CatalogProblem[] = [];
  const entries: { file: string; desc: CatalogDescriptor }[] = [];
  const lines = new Map<string, (path: Path) => number | null>();
  if (files.length === 0) problems.push({ file: '(catalog)', path: '', line: null, reason: 'no descriptor (*.yaml) found' });
  for (const f of files) {
    const r = parseFile(f);
    problems.push(...r.problems);
    if (r.desc) entries.push({ file: f.file, desc: r.desc });
    lines.set(f.file, r.lineAt);
  }
  for (const { file, problem } of crossCheckCatalog(entries))
    problems.push({ file, path: formatPath(problem.path), line: lines.get(file)?.(problem.path) ?? null, reason: problem.reason });
  if (problems.length > 0) throw new CatalogError(problems);
  const sources = files.map((f) => ({ file: f.file, sha256: createHash('sha256').update(f.text, 'utf8').digest('hex') }));
  return new Catalog(
    entries.map((e) => e.desc),
    sources,
  );
}

/** The *.yaml files of a folder, sorted by name. */
export function readCatalogDir(dir: string): CatalogFile[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.yaml') || n.endsWith('.yml'));
  } catch (error) {
    throw new CatalogError([{ file: dir, path: '', line: null, reason: `the catalog folder cannot be read: ${(error as Error).message}` }]);
  }
  return names.sort().map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8') }));
}

export const loadCatalogDir = (dir: string): Catalog => parseCatalog(readCatalogDir(dir));

/** A catalog that loaded, or why it did not: the manager starts either way and the catalog_valid rule says which. */
export type CatalogLoad = { ok: true; catalog: Catalog } | { ok: false; error: CatalogError };

export function tryParseCatalog(files: CatalogFile[]): CatalogLoad {
  try {
    return { ok: true, catalog: parseCatalog(files) };
  } catch (error) {
    if (error instanceof CatalogError) return { ok: false, error };
    throw error;
  }
}
