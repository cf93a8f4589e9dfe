// The YAML/JSON editor of the components tab: a ManagedComponent manifest (or the API's `{name, spec}`) parsed
// and checked against the CRD's schema before anything is sent. JSON is YAML, so one parser reads both. Loaded
// on first use (the YAML parser is the largest part of it).
import { parseAllDocuments } from 'yaml';
import type { ManagedComponentSpec } from '../../api/types';
import { MANAGED_COMPONENT_KIND } from './componentManifest';
import { validateComponentName, validateComponentSpec, type LabelProblem, type SpecIssue } from '../../api/validation';

export type DocumentIssue =
  | { kind: 'empty' }
  | { kind: 'syntax'; line: number | null; message: string }
  | { kind: 'several' }
  | { kind: 'not_object' }
  | { kind: 'wrong_kind'; found: string }
  | { kind: 'name'; problem: LabelProblem }
  | { kind: 'spec'; issue: SpecIssue };

export type ParsedComponent = { ok: true; name: string; spec: ManagedComponentSpec } | { ok: false; issue: DocumentIssue };

export function parseComponentDocument(text: string): ParsedComponent {
  if (text.trim() === '') return { ok: false, issue: { kind: 'empty' } };
  const all = parseAllDocuments(text, { prettyErrors: false, uniqueKeys: true });
  const docs = Array.isArray(all) ? all.filter((d) => d.errors.length > 0 || d.contents !== null) : [];
  if (docs.length > 1) return { ok: false, issue: { kind: 'several' } };
  const doc = docs[0];
  if (!doc) return { ok: false, issue: { kind: 'empty' } };
  const first = doc.errors[0];
  if (first) {
    const line = first.linePos?.[0]?.line ?? null;
    return { ok: false, issue: { kind: 'syntax', line, message: first.message.split('\n')[0] ?? first.message } };
  }
  const value: unknown = doc.toJS();
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, issue: { kind: 'not_object' } };
  const o = value as Record<string, unknown>;
  let name: unknown;
  let spec: unknown;
  if ('kind' in o || 'apiVersion' in o || 'metadata' in o) {
    if (o.kind !== MANAGED_COMPONENT_KIND) return { ok: false, issue: { kind: 'wrong_kind', found: String(o.kind ?? '') } };
    const metadata = o.metadata as Record<string, unknown> | undefined;
    name = typeof metadata === 'object' && metadata !== null ? metadata.name : undefined;
    spec = o.spec;
  } else {
    name = o.name;
    spec = o.spec;
  }
  const nameProblem = validateComponentName(typeof name === 'string' ? name : '');
  if (nameProblem) return { ok: false, issue: { kind: 'name', problem: nameProblem } };
  const specIssue = validateComponentSpec(spec);
  if (specIssue) return { ok: false, issue: { kind: 'spec', issue: specIssue } };
  return { ok: true, name: name as string, spec: spec as ManagedComponentSpec };
}
