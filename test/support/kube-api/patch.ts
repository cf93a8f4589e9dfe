// The three patch formats: JSON merge patch (RFC 7386), JSON patch (RFC 6902) and a strategic merge patch.
import { unprocessable } from './status.js';
import { clone, isPlainObject } from './types.js';

export const JSON_PATCH = 'application/json-patch+json';
export const MERGE_PATCH = 'application/merge-patch+json';
export const STRATEGIC_PATCH = 'application/strategic-merge-patch+json';
export const APPLY_PATCH = 'application/apply-patch+yaml';

export const mergePatch = (target: unknown, patch: unknown): unknown => {
  if (!isPlainObject(patch)) return clone(patch);
  const out: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
};

interface JsonPatchOp {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

const pointer = (p: string): string[] => {
  if (p === '') return [];
  if (!p.startsWith('/')) throw unprocessable(`invalid JSON pointer: "${p}"`);
  return p
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
};

type Container = Record<string, unknown> | unknown[];

const parentOf = (doc: unknown, parts: string[], op: string, path: string): [Container, string] => {
  let cur: unknown = doc;
  for (const part of parts.slice(0, -1)) {
    cur = Array.isArray(cur) ? cur[Number(part)] : isPlainObject(cur) ? cur[part] : undefined;
  }
  if (!Array.isArray(cur) && !isPlainObject(cur)) {
    throw unprocessable(`jsonpatch ${op} operation does not apply: doc is missing path: "${path}"`);
  }
  return [cur, parts[parts.length - 1] ?? ''];
};

const getAt = (doc: unknown, path: string, op: string): unknown => {
  const parts = pointer(path);
  if (parts.length === 0) return doc;
  const [c, last] = parentOf(doc, parts, op, path);
  const v = Array.isArray(c) ? c[Number(last)] : c[last];
  if (v === undefined) throw unprocessable(`jsonpatch ${op} operation does not apply: doc is missing path: "${path}"`);
  return v;
};

const removeAt = (doc: unknown, path: string, op: string): unknown => {
  const [c, last] = parentOf(doc, pointer(path), op, path);
  const v = getAt(doc, path, op);
  if (Array.isArray(c)) c.splice(Number(last), 1);
  else delete c[last];
  return v;
};

const addAt = (doc: unknown, path: string, value: unknown, op: string, replace: boolean): unknown => {
  const parts = pointer(path);
  if (parts.length === 0) return clone(value);
  const [c, last] = parentOf(doc, parts, op, path);
  if (Array.isArray(c)) {
    const i = last === '-' ? c.length : Number(last);
    if (!Number.isInteger(i) || i < 0 || i > c.length || (replace && i >= c.length)) {
      throw unprocessable(`jsonpatch ${op} operation does not apply: index out of range: "${path}"`);
    }
    c.splice(i, replace ? 1 : 0, clone(value));
  } else {
    if (replace && !(last in c)) throw unprocessable(`jsonpatch ${op} operation does not apply: doc is missing key: "${path}"`);
    c[last] = clone(value);
  }
  return doc;
};

export const jsonPatch = (target: unknown, ops: unknown): unknown => {
  if (!Array.isArray(ops)) throw unprocessable('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  let doc = clone(target);
  for (const raw of ops as JsonPatchOp[]) {
    const { op, path } = raw;
    switch (op) {
      case 'add':
        doc = addAt(doc, path, raw.value, op, false);
        break;
      case 'replace':
        doc = addAt(doc, path, raw.value, op, true);
        break;
      case 'remove':
        removeAt(doc, path, op);
        break;
      case 'move':
        doc = addAt(doc, path, removeAt(doc, raw.from ?? '', op), op, false);
        break;
      case 'copy':
        doc = addAt(doc, path, getAt(doc, raw.from ?? '', op), op, false);
        break;
      case 'test':
        if (JSON.stringify(getAt(doc, path, op)) !== JSON.stringify(raw.value)) {
          throw unprocessable(`testing value ${path} failed: test failed`);
        }
        break;
      default:
        throw unprocessable(`Unexpected kind: ${String(op)}`);
    }
  }
  return doc;
};

/** patchMergeKey of the well-known lists; `ports` uses containerPort in pods and port in services. */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  imagePullSecrets: 'name',
  conditions: 'type',
  ownerReferences: 'uid',
  hostAliases: 'ip',
  ports: 'port',
  readinessGates: 'conditionType',
};
/** Lists of scalars with patchStrategy merge: union, order kept. */
export const SET_LISTS = new Set(['finalizers']);

export const mergeKeyFor = (field: string, items: unknown[]): string | undefined => {
  if (field === 'ports' && items.some((i) => isPlainObject(i) && 'containerPort' in i)) return 'containerPort';
  return MERGE_KEYS[field];
};

const stripDirectives = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(stripDirectives);
  if (!isPlainObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (!k.startsWith('$')) out[k] = stripDirectives(x);
  return out;
};

const mergeList = (original: unknown, items: unknown[], key: string): unknown[] => {
  if (items.some((i) => isPlainObject(i) && i.$patch === 'replace')) {
    return items.filter((i) => !(isPlainObject(i) && i.$patch === 'replace')).map(stripDirectives);
  }
  const out = Array.isArray(original) ? clone(original) : [];
  for (const item of items) {
    if (!isPlainObject(item)) continue;
    const idx = out.findIndex((o) => isPlainObject(o) && o[key] === item[key]);
    if (item.$patch === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
    } else if (idx >= 0) out[idx] = strategicMerge(out[idx], item);
    else out.push(stripDirectives(item));
  }
  return out;
};

/**
 * Strategic merge patch over plain JSON: maps merge, null deletes, `$patch: replace|delete` and
 * `$deleteFromPrimitiveList/` directives, lists with a known merge key merge by it, other lists are replaced.
 */
export const strategicMerge = (original: unknown, patch: unknown): unknown => {
  if (!isPlainObject(patch)) return clone(patch);
  if (patch.$patch === 'replace') return stripDirectives(patch);
  const out: Record<string, unknown> = isPlainObject(original) ? clone(original) : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k === '$patch' || k === '$retainKeys' || k.startsWith('$setElementOrder/')) continue;
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const field = k.slice('$deleteFromPrimitiveList/'.length);
      const cur = out[field];
      if (Array.isArray(cur) && Array.isArray(v)) out[field] = cur.filter((x) => !v.includes(x));
      continue;
    }
    if (v === null) delete out[k];
    else if (Array.isArray(v)) {
      const key = mergeKeyFor(k, v);
      if (key && v.every(isPlainObject)) out[k] = mergeList(out[k], v, key);
      else if (SET_LISTS.has(k)) out[k] = [...new Set([...(Array.isArray(out[k]) ? (out[k] as unknown[]) : []), ...v])];
      else out[k] = stripDirectives(v);
    } else if (isPlainObject(v)) {
      if (v.$patch === 'delete') delete out[k];
      else out[k] = strategicMerge(out[k], v);
    } else out[k] = v;
  }
  return out;
};
