// A small, honest subset of Rego v1 for the OPA test server: what the smoke policy and the tests use, and a
// clear compile error for anything beyond it (never a silent wrong answer).
//
// Supported: `package a.b.c`; `import rego.v1` and `import future.keywords[.if]`; comments; complete rules
// `default name := scalar`, `name if { body }`, `name if expr`, `name := scalar if { body }`; bodies of
// expressions `term == term` / `term != term` joined by new lines or `;`, where a term is a reference into
// `input` (`input.a.b`) or a scalar (string, number, true, false, null). Several bodies of one rule are ORed;
// two bodies giving different values are an evaluation conflict, as in OPA.
// Not supported (refused at compile time): other imports, partial rules (`contains`, `[x]`), functions,
// `some`/`every`/`not`, comprehensions, `with`, built-in calls, references into `data`.

export class RegoError extends Error {
  constructor(
    readonly code: 'rego_parse_error' | 'rego_compile_error' | 'rego_type_error' | 'eval_conflict_error',
    message: string,
    readonly row: number,
  ) {
    super(message);
  }
}

export type Scalar = string | number | boolean | null;
type Term = { ref: string[] } | { value: Scalar };
interface Expr {
  op: '==' | '!=';
  left: Term;
  right: Term;
}
interface Rule {
  name: string;
  value: Scalar;
  body: Expr[];
  row: number;
}
export interface RegoModule {
  path: string[];
  defaults: Map<string, Scalar>;
  rules: Rule[];
}

function scalar(text: string, row: number): Scalar {
  const t = text.trim();
  if (t === 'true') return true;
  if (t === 'false') return false;
  if (t === 'null') return null;
  if (/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(t)) return Number(t);
  if (/^"(?:[^"\\]|\\.)*"$/.test(t)) return JSON.parse(t) as string;
  throw new RegoError(
    'rego_parse_error',
    `unexpected ${JSON.stringify(t)}: only string, number, boolean and null literals are supported here`,
    row,
  );
}

function term(text: string, row: number): Term {
  const t = text.trim();
  if (/^input(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(t)) return { ref: t.split('.') };
  if (/^data\b/.test(t)) throw new RegoError('rego_compile_error', 'references into data are not supported by this test server', row);
  return { value: scalar(t, row) };
}

function expression(text: string, row: number): Expr {
  // Split on the one comparison operator outside string literals.
  const m = /^((?:[^"=!]|"(?:[^"\\]|\\.)*")*?)\s*(==|!=)\s*(.+)$/.exec(text.trim());
  if (!m) throw new RegoError('rego_parse_error', `unsupported expression ${JSON.stringify(text.trim())}: only == and != comparisons`, row);
  return { op: m[2] as '==' | '!=', left: term(m[1]!, row), right: term(m[3]!, row) };
}

function stripComment(line: string): string {
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\' && inString) i++;
    else if (c === '"') inString = !inString;
    else if (c === '#' && !inString) return line.slice(0, i);
  }
  return line;
}

export function parseModule(source: string): RegoModule {
  const lines = source.split('\n').map((l, i) => ({ text: stripComment(l).trim(), row: i + 1 }));
  let path: string[] | null = null;
  const defaults = new Map<string, Scalar>();
  const rules: Rule[] = [];
  for (let i = 0; i < lines.length; i++) {
    const { text, row } = lines[i]!;
    if (text === '') continue;
    if (path === null) {
      const m = /^package\s+([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)$/.exec(text);
      if (!m) throw new RegoError('rego_parse_error', 'package expected', row);
      path = m[1]!.split('.');
      continue;
    }
    if (text.startsWith('import ')) {
      if (!/^import\s+(rego\.v1|future\.keywords(\.if)?)$/.test(text)) {
        throw new RegoError('rego_compile_error', `${text} is not supported by this test server`, row);
      }
      continue;
    }
    const def = /^default\s+([A-Za-z_][A-Za-z0-9_]*)\s*:?=\s*(.+)$/.exec(text);
    if (def) {
      if (defaults.has(def[1]!))
        throw new RegoError('rego_type_error', `multiple default rules data.${path.join('.')}.${def[1]} found`, row);
      defaults.set(def[1]!, scalar(def[2]!, row));
      continue;
    }
    const head = /^([A-Za-z_][A-Za-z0-9_]*)\s*(?::?=\s*((?:[^"{]|"(?:[^"\\]|\\.)*")+?))?\s*(?:\bif\b\s*(.*)|(\{.*))?$/.exec(text);
    if (!head) throw new RegoError('rego_parse_error', `unexpected ${JSON.stringify(text)}`, row);
    const [, name, valueText, afterIf, braceWithoutIf] = head;
    const value = valueText === undefined ? true : scalar(valueText, row);
    if (braceWithoutIf !== undefined) throw new RegoError('rego_parse_error', '`if` keyword is required before rule body', row);
    if (afterIf === undefined) {
      // `name := value` with no body: a constant.
      if (valueText === undefined) throw new RegoError('rego_parse_error', `unexpected ${JSON.stringify(text)}`, row);
      rules.push({ name: name!, value, body: [], row });
      continue;
    }
    const body: Expr[] = [];
    if (!afterIf.startsWith('{')) {
      // `name if expr` on one line.
      if (afterIf.trim() === '') throw new RegoError('rego_parse_error', 'rule body expected after if', row);
      body.push(expression(afterIf, row));
      rules.push({ name: name!, value, body, row });
      continue;
    }
    const braceRest = afterIf;
    let inner = braceRest.slice(1);
    let closed = false;
    for (;;) {
      const end = inner.indexOf('}');
      const part = end >= 0 ? inner.slice(0, end) : inner;
      for (const piece of part.split(';')) if (piece.trim() !== '') body.push(expression(piece, lines[i]!.row));
      if (end >= 0) {
        if (inner.slice(end + 1).trim() !== '') throw new RegoError('rego_parse_error', 'unexpected text after }', lines[i]!.row);
        closed = true;
        break;
      }
      i++;
      if (i >= lines.length) break;
      inner = lines[i]!.text;
    }
    if (!closed) throw new RegoError('rego_parse_error', 'unexpected eof token: expected }', lines[lines.length - 1]!.row);
    if (body.length === 0) throw new RegoError('rego_parse_error', 'found empty body', row);
    rules.push({ name: name!, value, body, row });
  }
  if (path === null) throw new RegoError('rego_parse_error', 'package expected', 1);
  for (const [name, v] of defaults) {
    for (const r of rules) {
      if (r.name === name && typeof r.value !== typeof v) {
        throw new RegoError('rego_type_error', `conflicting types for default and rule ${name}`, r.row);
      }
    }
  }
  return { path, defaults, rules };
}

const UNDEFINED = Symbol('undefined');
type Value = unknown;

function resolve(t: Term, input: Value): Value | typeof UNDEFINED {
  if ('value' in t) return t.value;
  let cur: Value = input;
  if (cur === undefined) return UNDEFINED;
  for (const key of t.ref.slice(1)) {
    if (typeof cur !== 'object' || cur === null || Array.isArray(cur) || !Object.hasOwn(cur, key)) return UNDEFINED;
    cur = (cur as Record<string, Value>)[key];
  }
  return cur;
}

function equal(a: Value, b: Value): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The value of each rule of a module for an input; a rule with no default and no true body is left out. */
export function evaluateModule(mod: RegoModule, input: Value): Record<string, Value> {
  const out: Record<string, Value> = {};
  const names = new Set([...mod.defaults.keys(), ...mod.rules.map((r) => r.name)]);
  for (const name of names) {
    const values = mod.rules
      .filter((r) => r.name === name)
      .filter((r) =>
        r.body.every((e) => {
          const l = resolve(e.left, input);
          const rt = resolve(e.right, input);
          if (l === UNDEFINED || rt === UNDEFINED) return false;
          return e.op === '==' ? equal(l, rt) : !equal(l, rt);
        }),
      )
      .map((r) => r.value);
    const distinct = [...new Set(values.map((v) => JSON.stringify(v)))];
    if (distinct.length > 1) {
      throw new RegoError(
        'eval_conflict_error',
        `complete rules must not produce multiple outputs (data.${mod.path.join('.')}.${name})`,
        0,
      );
    }
    if (values.length > 0) out[name] = values[0];
    else if (mod.defaults.has(name)) out[name] = mod.defaults.get(name);
  }
  return out;
}
