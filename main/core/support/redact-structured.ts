// JSON and YAML files are redacted value by value, each value with the key it sits under, and written back in
// place: a value that changes is re-encoded as a string of the file's own syntax, everything else keeps its bytes,
// so the file still parses (a number replaced by a bare marker made services.json invalid). A text that does not
// parse is not handled here: the caller redacts it line by line.
import { isPair, isScalar, parseAllDocuments, visit, type Scalar } from 'yaml';

/** Redacts one value; `keys` are the keys it sits under, nearest first (an array's items sit under the array's key). */
export type ValueRedactor = (value: string, keys: readonly string[]) => string;

/**
 * A Kubernetes Secret's `data` and `stringData` are secrets whatever their names: their values are given the
 * key `secret` above them.
 */
const SECRET_KEY = 'secret';
const isKubernetesSecret = (doc: unknown): boolean =>
  doc !== null && typeof doc === 'object' && (doc as { kind?: unknown }).kind === 'Secret';
const SECRET_DATA = /^(?:data|stringData)$/;

const JSON_TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|[{}[\],:]|\s+/y;

/** The JSON text with its keys and values redacted, or null when it is not JSON. */
export function redactJson(text: string, value: ValueRedactor, key: (k: string) => string): string | null {
  let secretDoc: boolean;
  try {
    secretDoc = isKubernetesSecret(JSON.parse(text));
  } catch {
    return null;
  }
  const stack: { array: boolean; key: string | null }[] = [];
  const keysOf = (near: string | null): string[] => {
    const keys = [near, ...stack.map((s) => s.key).reverse()].filter((k): k is string => k !== null);
    return secretDoc && stack.length >= 2 && SECRET_DATA.test(stack[1]!.key ?? '') ? [...keys, SECRET_KEY] : keys;
  };
  let current: string | null = null;
  let out = '';
  JSON_TOKEN.lastIndex = 0;
  while (JSON_TOKEN.lastIndex < text.length) {
    const at = JSON_TOKEN.lastIndex;
    const m = JSON_TOKEN.exec(text);
    if (!m) return null;
    const tok = m[0];
    const top = stack.at(-1);
    if (tok[0] === '"') {
      const decoded = JSON.parse(tok) as string;
      const isKey = /^\s*:/.test(text.slice(JSON_TOKEN.lastIndex, JSON_TOKEN.lastIndex + 64));
      if (isKey) current = decoded;
      const r = isKey ? key(decoded) : value(decoded, keysOf(top?.array ? null : current));
      out += r === decoded ? tok : JSON.stringify(r);
    } else if (/^-?\d/.test(tok)) {
      const r = value(tok, keysOf(top?.array ? null : current));
      out += r === tok ? tok : JSON.stringify(r);
    } else {
      if (tok === '{') {
        stack.push({ array: false, key: top?.array ? null : current });
        current = null;
      } else if (tok === '[') stack.push({ array: true, key: top?.array ? null : current });
      else if (tok === '}' || tok === ']') stack.pop();
      out += tok;
    }
    if (JSON_TOKEN.lastIndex === at) return null;
  }
  return out;
}

/** A YAML double-quoted scalar: JSON's escapes, and the characters YAML does not allow raw escaped too. */
const yamlQuote = (s: string): string =>
  JSON.stringify(s).replace(/[\u007f-\u009f\ufeff\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The YAML text (every document of it) with its scalars and comments redacted, or null when it is not YAML. */
export function redactYaml(text: string, value: ValueRedactor, key: (k: string) => string, comment: (c: string) => string): string | null {
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0)) return null;
  const edits: { start: number; end: number; text: string }[] = [];
  const scalars: [number, number][] = [];
  for (const doc of docs) {
    const secretDoc = isKubernetesSecret(doc.toJS());
    visit(doc, {
      Scalar(where, node: Scalar, path) {
        if (!node.range) return;
        const [start, end] = node.range;
        scalars.push([start, end]);
        const source = text.slice(start, end);
        const original = typeof node.value === 'string' ? node.value : source;
        // The keys above this value: every pair on its path, but not its own pair when it is that pair's key.
        const under = path
          .filter((p, i) => isPair(p) && !(i === path.length - 1 && where === 'key'))
          .map((p) => (isPair(p) && isScalar(p.key) ? String(p.key.value) : ''))
          .reverse();
        const top = path.find((p) => isPair(p));
        if (secretDoc && isPair(top) && isScalar(top.key) && SECRET_DATA.test(String(top.key.value)) && top !== path.at(-1))
          under.push(SECRET_KEY);
        const r = where === 'key' ? key(original) : value(original, under);
        if (r !== original) edits.push({ start, end, text: yamlQuote(r) + (source.endsWith('\n') ? '\n' : '') });
      },
    });
  }
  // Comments sit outside every scalar: a `#` at a line's start or after a blank, in the gaps between scalars.
  scalars.sort((a, b) => a[0] - b[0]);
  let from = 0;
  for (const [start, end] of [...scalars, [text.length, text.length] as [number, number]]) {
    const gap = text.slice(from, start);
    for (const m of gap.matchAll(/(?<=^|[ \t\n])#([^\n]*)/g)) {
      const r = comment(m[1]!);
      if (r !== m[1]) edits.push({ start: from + m.index + 1, end: from + m.index + m[0].length, text: r });
    }
    from = Math.max(from, end);
  }
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const e of edits) {
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}
