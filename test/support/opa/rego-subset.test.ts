// The Rego subset of the OPA test server answers as OPA does for what it supports, and refuses the rest at
// compile time instead of evaluating it wrongly.
import { expect, test } from 'vitest';
import { opaSmokePolicy } from '../../../agent/checks';
import { evaluateModule, parseModule, type RegoError } from './rego-subset';

const refused = (source: string) => {
  try {
    parseModule(source);
  } catch (error) {
    return (error as RegoError).code;
  }
  return 'accepted';
};

test('the smoke policy: allow only the fresh subject reading, default false, undefined input fields never match', () => {
  const mod = parseModule(opaSmokePolicy('abc123'));
  expect(mod.path).toEqual(['navin', 'smoke', 'nabc123']);
  expect(evaluateModule(mod, { subject: 'navin-smoke-abc123', action: 'read' })).toEqual({ allow: true });
  expect(evaluateModule(mod, { subject: 'navin-smoke-abc123', action: 'write' })).toEqual({ allow: false });
  expect(evaluateModule(mod, { action: 'read' })).toEqual({ allow: false });
  expect(evaluateModule(mod, undefined)).toEqual({ allow: false });
});

test('bodies are ORed, != and one-line bodies work, a rule with no default and no match is undefined', () => {
  const mod = parseModule(
    'package p\nimport rego.v1\nallow if input.a == 1\nallow if { input.b != "x"; input.c == true }\nlevel := "high" if { input.a == 1 } # why\n',
  );
  expect(evaluateModule(mod, { a: 1 })).toEqual({ allow: true, level: 'high' });
  expect(evaluateModule(mod, { b: 'y', c: true })).toEqual({ allow: true });
  expect(evaluateModule(mod, { b: 'x', c: true })).toEqual({});
});

test('conflicting complete rules are an evaluation error; what the subset lacks is refused at compile time', () => {
  const mod = parseModule('package p\nimport rego.v1\nv := 1 if input.a == 1\nv := 2 if input.b == 1\n');
  expect(() => evaluateModule(mod, { a: 1, b: 1 })).toThrow(/multiple outputs/);
  expect(refused('package p\nallow {\n input.a == 1\n}\n')).toBe('rego_parse_error'); // Rego v1 requires `if`
  expect(refused('package p\nimport data.users\n')).toBe('rego_compile_error');
  expect(refused('package p\nimport rego.v1\nallow if { count(input.a) > 1 }\n')).toBe('rego_parse_error');
  expect(refused('package p\nimport rego.v1\nallow if { input.a == data.x }\n')).toBe('rego_compile_error');
  expect(refused('package p\nimport rego.v1\ndefault allow := false\ndefault allow := true\n')).toBe('rego_type_error');
  expect(refused('package p\nimport rego.v1\nallow if {\n input.a == 1\n')).toBe('rego_parse_error');
});
