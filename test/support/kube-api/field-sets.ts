// Field sets as structured-merge-diff computes them over a schema: the fields a value sets, what changed between
// two values, the merge of an applied configuration, and their FieldsV1 encoding in metadata.managedFields.
import type { Schema } from './schemas.js';
import { canonicalJson, clone, isPlainObject } from './types.js';

/** One path element, spelt as in FieldsV1: `f:name`, `k:{"name":"web"}`, `v:"value"`, `i:0`. */
export type Path = string[];
export type Resolve = (s: Schema | undefined) => Schema | undefined;

type Shape =
  | { kind: 'leaf' }
  | { kind: 'struct' | 'map'; child(key: string): Schema | undefined; declared(key: string): boolean }
  | { kind: 'list'; items: Schema | undefined; set: boolean; keys: string[] };

const LEAF: Shape = { kind: 'leaf' };

/** How a value is walked: granular maps and structs, associative lists (set or map), or one atomic leaf. */
const shapeOf = (resolve: Resolve, schema: Schema | undefined, v: unknown): Shape => {
  const s = resolve(schema);
  const deduced = !s || (s['x-kubernetes-preserve-unknown-fields'] && !s.properties && !isPlainObject(s.additionalProperties));
  if (deduced) return isPlainObject(v) ? { kind: 'map', child: () => undefined, declared: () => false } : LEAF;
  if (s['x-kubernetes-int-or-string']) return LEAF;
  if (Array.isArray(v)) {
    const listType = s['x-kubernetes-list-type'];
    if (listType === 'set') return { kind: 'list', items: s.items, set: true, keys: [] };
    if (listType === 'map') return { kind: 'list', items: s.items, set: false, keys: [...(s['x-kubernetes-list-map-keys'] ?? [])].sort() };
    return LEAF;
  }
  if (!isPlainObject(v) || s['x-kubernetes-map-type'] === 'atomic') return LEAF;
  const extra = isPlainObject(s.additionalProperties) ? (s.additionalProperties as Schema) : undefined;
  if (s.properties) return { kind: 'struct', child: (k) => s.properties?.[k] ?? extra, declared: (k) => !!s.properties?.[k] };
  return { kind: 'map', child: () => extra, declared: () => false };
};

const itemElement = (shape: Extract<Shape, { kind: 'list' }>, item: unknown, index: number): string => {
  if (shape.set) return `v:${JSON.stringify(item)}`;
  if (isPlainObject(item) && shape.keys.length > 0 && shape.keys.every((k) => item[k] !== undefined)) {
    return `k:${JSON.stringify(Object.fromEntries(shape.keys.map((k) => [k, item[k]])))}`;
  }
  return `i:${index}`;
};

const isEmpty = (v: unknown): boolean => v === undefined || v === null || (isPlainObject(v) && Object.keys(v).length === 0);

export class FieldSet {
  private readonly paths = new Set<string>();

  static of(paths: Iterable<Path>): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  insert(p: Path): void {
    this.paths.add(JSON.stringify(p));
  }
  has(p: Path): boolean {
    return this.paths.has(JSON.stringify(p));
  }
  get size(): number {
    return this.paths.size;
  }
  list(): Path[] {
    return [...this.paths].map((p) => JSON.parse(p) as Path);
  }
  union(o: FieldSet): FieldSet {
    return FieldSet.of([...this.list(), ...o.list()]);
  }
  minus(o: FieldSet): FieldSet {
    return FieldSet.of(this.list().filter((p) => !o.has(p)));
  }
  intersect(o: FieldSet): FieldSet {
    return FieldSet.of(this.list().filter((p) => o.has(p)));
  }
  filter(keep: (p: Path) => boolean): FieldSet {
    return FieldSet.of(this.list().filter(keep));
  }
  /** Whether the set holds the path or anything beneath it. */
  covers(p: Path): boolean {
    const prefix = JSON.stringify(p).slice(0, -1);
    for (const x of this.paths) if (x === `${prefix}]` || x.startsWith(`${prefix},`)) return true;
    return false;
  }

  /** The FieldsV1 tree: one key per element, `.` where a path with children is itself a member. */
  toFieldsV1(): Record<string, unknown> {
    const root: Record<string, Record<string, unknown>> = {};
    const members = new Set<string>();
    for (const p of this.list()) {
      let node: Record<string, unknown> = root;
      for (const pe of p) node = (node[pe] ??= {}) as Record<string, unknown>;
      members.add(JSON.stringify(p));
    }
    const sort = (node: Record<string, unknown>, path: Path): Record<string, unknown> => {
      const keys = Object.keys(node).sort();
      const out: Record<string, unknown> = {};
      if (keys.length > 0 && members.has(JSON.stringify(path)) && path.length > 0) out['.'] = {};
      for (const k of keys) out[k] = sort(node[k] as Record<string, unknown>, [...path, k]);
      return out;
    };
    return sort(root, []);
  }

  static fromFieldsV1(tree: unknown): FieldSet | undefined {
    const s = new FieldSet();
    const walk = (node: unknown, path: Path): boolean => {
      if (!isPlainObject(node)) return false;
      const keys = Object.keys(node);
      if (keys.length === 0 && path.length > 0) s.insert(path);
      for (const k of keys) {
        if (k === '.') s.insert(path);
        else if (!/^[fkvi]:/.test(k) || !walk(node[k], [...path, k])) return false;
      }
      return true;
    };
    return walk(tree, []) ? s : undefined;
  }
}

/** fieldpath.Path.String(): `.spec.replicas`, `.spec.containers[name="web"].image`, `.metadata.finalizers[="x"]`. */
export const pathString = (p: Path): string =>
  p
    .map((pe) => {
      const body = pe.slice(2);
      if (pe.startsWith('f:')) return `.${body}`;
      if (pe.startsWith('v:')) return `[=${body}]`;
      if (pe.startsWith('i:')) return `[${body}]`;
      const key = JSON.parse(body) as Record<string, unknown>;
      return `[${Object.entries(key)
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(',')}]`;
    })
    .join('');

/** typed.ToFieldSet(): every leaf, every list item, every map entry (struct fields only when null or empty). */
export const toFieldSet = (resolve: Resolve, schema: Schema | undefined, value: unknown): FieldSet => {
  const set = new FieldSet();
  const walk = (s: Schema | undefined, v: unknown, path: Path): void => {
    const shape = shapeOf(resolve, s, v);
    if (shape.kind === 'leaf') {
      if (path.length > 0) set.insert(path);
    } else if (shape.kind === 'list') {
      (v as unknown[]).forEach((item, i) => {
        const p = [...path, itemElement(shape, item, i)];
        walk(shape.items, item, p);
        set.insert(p);
      });
    } else {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        const p = [...path, `f:${k}`];
        walk(shape.child(k), x, p);
        if (isEmpty(x) || !shape.declared(k)) set.insert(p);
      }
    }
  };
  walk(schema, value, []);
  return set;
};

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/**
 * typed.Compare(): leaves added, modified or removed, and non-leaf nodes that appeared or went. `structsAlwaysSet`
 * leaves struct nodes out, as for built-in kinds whose Go structs always exist (maps and list items still count).
 */
export const compare = (
  resolve: Resolve,
  schema: Schema | undefined,
  lhs: unknown,
  rhs: unknown,
  structsAlwaysSet: boolean,
): Comparison => {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  const leaf = (l: unknown, r: unknown, path: Path): void => {
    if (l === undefined && r === undefined) return;
    if (l === undefined) c.added.insert(path);
    else if (r === undefined) c.removed.insert(path);
    else if (canonicalJson(l) !== canonicalJson(r)) c.modified.insert(path);
  };
  const walk = (s: Schema | undefined, l: unknown, r: unknown, path: Path): void => {
    const shape = shapeOf(resolve, s, r ?? l);
    const lShape = l === undefined ? shape : shapeOf(resolve, s, l);
    const bothEmpty =
      shape.kind === 'list'
        ? !(Array.isArray(l) && l.length) && !(Array.isArray(r) && r.length)
        : shape.kind !== 'leaf' && isEmpty(l) && isEmpty(r);
    if (shape.kind === 'leaf' || lShape.kind !== shape.kind || bothEmpty) {
      if (path.length > 0) leaf(l, r, path);
      return;
    }
    if (shape.kind === 'list') {
      const lItems = Array.isArray(l) ? l : [];
      const rItems = Array.isArray(r) ? r : [];
      const rByPe = new Map(rItems.map((x, i) => [itemElement(shape, x, i), x]));
      const seen = new Set<string>();
      lItems.forEach((x, i) => {
        const pe = itemElement(shape, x, i);
        seen.add(pe);
        walk(shape.items, x, rByPe.get(pe), [...path, pe]);
      });
      rItems.forEach((x, i) => {
        const pe = itemElement(shape, x, i);
        if (!seen.has(pe)) walk(shape.items, undefined, x, [...path, pe]);
      });
    } else {
      const lo = isPlainObject(l) ? l : {};
      const ro = isPlainObject(r) ? r : {};
      for (const k of new Set([...Object.keys(lo), ...Object.keys(ro)])) walk(shape.child(k), lo[k], ro[k], [...path, `f:${k}`]);
    }
    if (path.length === 0 || (structsAlwaysSet && shape.kind === 'struct' && path[path.length - 1]?.startsWith('f:'))) return;
    if (l === undefined) c.added.insert(path);
    else if (r === undefined) c.removed.insert(path);
  };
  walk(schema, lhs, rhs, []);
  return c;
};

/** typed.Merge(): the applied configuration over the live object; associative lists merged by key. */
export const mergeApplied = (resolve: Resolve, schema: Schema | undefined, live: unknown, config: unknown): unknown => {
  if (config === undefined) return clone(live);
  if (live === undefined || live === null) return clone(config);
  const shape = shapeOf(resolve, schema, config);
  if (shape.kind === 'leaf' || shapeOf(resolve, schema, live).kind !== shape.kind) return clone(config);
  if (shape.kind === 'list') {
    const l = live as unknown[];
    const r = config as unknown[];
    const rByPe = new Map(r.map((x, i) => [itemElement(shape, x, i), x]));
    const lPes = new Set(l.map((x, i) => itemElement(shape, x, i)));
    return [
      ...l.map((x, i) => mergeApplied(resolve, shape.items, x, rByPe.get(itemElement(shape, x, i)))),
      ...r.filter((x, i) => !lPes.has(itemElement(shape, x, i))).map((x) => clone(x)),
    ];
  }
  const out: Record<string, unknown> = { ...(live as Record<string, unknown>) };
  for (const [k, v] of Object.entries(config as Record<string, unknown>)) out[k] = mergeApplied(resolve, shape.child(k), out[k], v);
  return out;
};

/** Removes the value at each path (a field, a list item); paths that are not there are ignored. */
export const removePaths = (value: unknown, paths: Path[]): unknown => {
  const out = clone(value);
  for (const path of paths) {
    let parent: unknown = out;
    for (let i = 0; i < path.length; i++) {
      const pe = path[i] ?? '';
      const last = i === path.length - 1;
      const body = pe.slice(2);
      if (pe.startsWith('f:')) {
        if (!isPlainObject(parent)) break;
        if (last) delete parent[body];
        else parent = parent[body];
      } else if (Array.isArray(parent)) {
        const list: unknown[] = parent;
        const idx = pe.startsWith('i:')
          ? Number(body)
          : pe.startsWith('v:')
            ? list.findIndex((x) => canonicalJson(x) === canonicalJson(JSON.parse(body)))
            : list.findIndex(
                (x) =>
                  isPlainObject(x) &&
                  Object.entries(JSON.parse(body) as Record<string, unknown>).every(([k, v]) => canonicalJson(x[k]) === canonicalJson(v)),
              );
        if (idx < 0 || idx >= list.length) break;
        if (last) list.splice(idx, 1);
        else parent = list[idx];
      } else break;
    }
  }
  return out;
};
