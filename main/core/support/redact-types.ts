// What every part of the redaction shares: the kinds of replacement MANIFEST.json counts, the kinds of text, and
// the shape of a rule.
import { REDACTION_KINDS, type RedactionKind, type SupportTextKind } from '../../contract/support';

export { REDACTION_KINDS, type RedactionKind };
export type RedactionCounts = Record<RedactionKind, number>;

/** What is redacted: `log` also has its IP addresses replaced (configs keep theirs, they are the topology). */
export type TextKind = SupportTextKind;

/** Counts one replacement of `kind` (the rule's own unless said) and returns its marker. */
export type Replace = (found: string, kind?: RedactionKind) => string;

export interface RedactionRule {
  kind: RedactionKind;
  /**
   * `line` rules see one line at a time (a record of a log or a config); `block` rules see a whole text or a
   * whole value, for what spans lines (key blocks, multi-line elements, a YAML block under a password key).
   */
  scope?: 'line' | 'block';
  /** Whether the rule applies to this kind of text. */
  applies(kind: TextKind): boolean;
  apply(text: string, replace: Replace): string;
}

const MARKER = /^\[redacted:[a-z_]+\]$/;
export const isMarker = (s: string): boolean => MARKER.test(s);
