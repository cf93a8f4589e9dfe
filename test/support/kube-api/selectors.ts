// Label selectors (=, ==, !=, in, notin, exists, !exists, gt, lt) and field selectors (=, ==, !=), as the API parses them.
import { badRequest } from './status.js';
import type { KubeObject } from './types.js';

export type Matcher = (obj: KubeObject) => boolean;

/** Splits on commas outside parentheses. */
const splitTop = (s: string): string[] => {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((x) => x.trim()).filter((x) => x !== '');
};

const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const KEY = /^([a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?\/)?[a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?$/;

const parseRequirement = (req: string): ((labels: Record<string, string>) => boolean) => {
  const fail = (): never => {
    throw badRequest(`unable to parse requirement: found '${req}', expected: valid label selector requirement`);
  };
  const key = (k: string): string => (KEY.test(k.trim()) ? k.trim() : fail());
  const value = (v: string): string => (v.length <= 63 && VALUE.test(v) ? v : fail());
  let m = /^!\s*(\S+)$/.exec(req);
  if (m) {
    const k = key(m[1] ?? '');
    return (l) => !(k in l);
  }
  m = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(req);
  if (m) {
    const k = key(m[1] ?? '');
    const values = (m[3] ?? '').split(',').map((v) => value(v.trim()));
    return m[2] === 'in' ? (l) => k in l && values.includes(l[k] ?? '') : (l) => !(k in l) || !values.includes(l[k] ?? '');
  }
  m = /^([^=!<>\s]+)\s*(==|=|!=|>|<)\s*(\S*)$/.exec(req);
  if (m) {
    const k = key(m[1] ?? '');
    const v = value(m[3] ?? '');
    switch (m[2]) {
      case '!=':
        return (l) => l[k] !== v;
      case '>':
      case '<': {
        const n = Number(v);
        if (!Number.isInteger(n)) fail();
        return (l) => k in l && (m?.[2] === '>' ? Number(l[k]) > n : Number(l[k]) < n);
      }
      default:
        return (l) => l[k] === v;
    }
  }
  const k = key(req);
  return (l) => k in l;
};

export const labelSelector = (selector: string | null | undefined): Matcher => {
  if (!selector) return () => true;
  const reqs = splitTop(selector).map(parseRequirement);
  return (obj) => {
    const labels = obj.metadata?.labels ?? {};
    return reqs.every((r) => r(labels));
  };
};

const fieldValue = (obj: KubeObject, path: string): string => {
  if (path === 'source') path = 'source.component';
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    cur = typeof cur === 'object' && cur !== null ? (cur as Record<string, unknown>)[part] : undefined;
  }
  return cur === undefined || cur === null ? '' : String(cur);
};

/** `supported` lists the field labels this resource accepts besides metadata.name and metadata.namespace. */
export const fieldSelector = (selector: string | null | undefined, supported: string[]): Matcher => {
  if (!selector) return () => true;
  const reqs = splitTop(selector).map((req) => {
    const m = /^([^=!\s]+)\s*(==|=|!=)\s*(.*)$/.exec(req);
    if (!m) throw badRequest(`invalid selector: '${selector}'; can't understand '${req}'`);
    const [, field = '', op, value = ''] = m;
    if (field !== 'metadata.name' && field !== 'metadata.namespace' && !supported.includes(field)) {
      throw badRequest(`field label not supported: ${field}`);
    }
    return (o: KubeObject) => (fieldValue(o, field) === value) === (op !== '!=');
  });
  return (obj) => reqs.every((r) => r(obj));
};

/** The name a list or watch is narrowed to by `metadata.name=x`: RBAC lets resourceNames rules authorise it. */
export const selectedName = (selector: string | null | undefined): string => {
  if (!selector) return '';
  for (const req of splitTop(selector)) {
    const m = /^metadata\.name\s*==?\s*(.+)$/.exec(req);
    if (m) return (m[1] ?? '').trim();
  }
  return '';
};
