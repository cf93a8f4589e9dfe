// The redaction of a support archive: every rule replaces what it finds with a marker naming its kind and counts
// it, so MANIFEST.json can say how many replacements of each kind were made. Operators (registered user names, in
// any case) become pseudonyms keyed by a random per-archive key: the same person reads the same everywhere in one
// archive, and two archives cannot be linked.
//
// Redaction works on whole records, never on slices of a text cut at some length: a JSON or YAML file value by
// value (each with the keys it sits under, written back so the file still parses), any other text line by line,
// after the rules for what spans lines (key blocks, multi-line elements) have seen the whole text. What the
// maintained preset (preset-findings.ts) found in a file and the console's rules left replaces its whole record.
import { createHmac, randomBytes } from 'node:crypto';
import type { RedactionFailure } from '../../contract/support';
import type { CountryCode } from 'libphonenumber-js';
import { defaultRules } from './redact-rules';
import { redactJson, redactYaml } from './redact-structured';
import { presetFindings, type PresetFinding } from './preset-findings';
import { secretKeyKind } from './redact-shapes';
import { REDACTION_KINDS, isMarker, type RedactionCounts, type RedactionRule, type TextKind } from './redact-types';
import { DEFAULT_SECRET_RULES, type SecretRule } from './secret-rules';

export { luhnValid } from './redact-shapes';
export type { RedactionFailure };
export { REDACTION_KINDS, type RedactionCounts, type RedactionKind, type RedactionRule, type TextKind } from './redact-types';

export interface RedactionInput {
  /** Every secret value the console knows (passwords, keys, tokens): replaced wherever it appears. */
  secrets: readonly string[];
  /** Registered user names (operators): replaced by their per-archive pseudonym, in any case. */
  userNames: readonly string[];
  /** The region whose national phone format is read first (others common in Europe and North America follow). */
  phoneRegion?: CountryCode;
  /** The per-archive pseudonym key; random unless given. */
  key?: Uint8Array;
  /** The shapes of third-party credentials; the set shipped with the console unless given. */
  secretRules?: readonly SecretRule[];
  /** What the maintained preset finds in a whole file; secretlint's recommended preset unless given. */
  findSecrets?: (text: string) => Promise<PresetFinding[]>;
}

export function zeroCounts(): RedactionCounts {
  return Object.fromEntries(REDACTION_KINDS.map((k) => [k, 0])) as RedactionCounts;
}

const JSON_FILE = /\.json$/i;
const YAML_FILE = /\.ya?ml$/i;
/** A JSON Web Key's private members (`k` of a symmetric key). */
const JWK_PRIVATE_MEMBER = /^(?:d|p|q|dp|dq|qi|k)$/;
/** Values a credential key may hold that are no secret. */
const NOT_A_VALUE = /^(?:|null|~|true|false)$/;

/** One archive's redactor: its pseudonym key lives as long as the archive being built, and is never written. */
export class Redactor {
  readonly counts = zeroCounts();
  readonly failures: RedactionFailure[] = [];
  private readonly key: Uint8Array;
  private readonly rules: RedactionRule[];
  private readonly findSecrets: (text: string) => Promise<PresetFinding[]>;

  constructor(input: RedactionInput, rules?: (defaults: RedactionRule[]) => RedactionRule[]) {
    this.key = input.key ?? randomBytes(32);
    this.findSecrets = input.findSecrets ?? presetFindings;
    const defaults = defaultRules({
      secrets: input.secrets,
      userNames: input.userNames,
      phoneRegion: input.phoneRegion ?? 'FR',
      secretRules: input.secretRules ?? DEFAULT_SECRET_RULES,
      pseudonym: (name) => this.pseudonym(name),
    });
    this.rules = rules ? rules(defaults) : defaults;
  }

  /** The per-archive pseudonym of an operator: HMAC-SHA256 under the archive's key, cut to 10 hex digits. */
  pseudonym(name: string): string {
    const id = name.normalize('NFC').toLowerCase();
    return `operator-${createHmac('sha256', this.key).update(id).digest('hex').slice(0, 10)}`;
  }

  /** Redacts one file after the maintained preset read it whole (what an archive does with each of its files). */
  async redactFileWithPreset(path: string, text: string, kind: TextKind): Promise<string> {
    let findings: PresetFinding[] = [];
    try {
      findings = await this.findSecrets(text);
    } catch (err) {
      this.failures.push({ kind: 'token', file: path, message: `secretlint: ${err instanceof Error ? err.message : String(err)}` });
    }
    return this.redactFile(path, text, kind, findings);
  }

  /**
   * Redacts one file: JSON and YAML value by value (and checked to parse after), any other text line by line; a
   * record that still holds one of the preset's `findings` after the console's rules is replaced whole.
   */
  redactFile(path: string, text: string, kind: TextKind, findings: readonly PresetFinding[] = []): string {
    const value = (v: string, keys: readonly string[]): string => this.redactValue(v, keys, kind, path, findings);
    const key = (k: string): string => this.redact(k, kind, path, findings);
    let out: string | null = null;
    if (JSON_FILE.test(path)) {
      out = redactJson(text, value, key);
      if (out !== null) this.checkParses(path, () => JSON.parse(out!));
    } else if (YAML_FILE.test(path)) {
      out = redactYaml(text, value, key, (c) => this.redact(c, kind, path, findings));
      if (out !== null)
        this.checkParses(
          path,
          () =>
            redactYaml(
              out!,
              (v) => v,
              (k) => k,
              (c) => c,
            ) ?? fail(),
        );
    }
    return out ?? this.redact(text, kind, path, findings);
  }

  /** One value of a structured file: all of it when a key above it names a credential, else as a text. */
  private redactValue(value: string, keys: readonly string[], kind: TextKind, file: string, findings: readonly PresetFinding[]): string {
    const jwk = JWK_PRIVATE_MEMBER.test(keys[0] ?? '') && /^[A-Za-z0-9_-]{16,}$/.test(value) ? 'private_key' : null;
    const secret = jwk ?? keys.map(secretKeyKind).find((k) => k !== null);
    if (secret && !NOT_A_VALUE.test(value.trim()) && !isMarker(value)) {
      this.counts[secret] += 1;
      return `[redacted:${secret}]`;
    }
    return this.redact(value, kind, file, findings);
  }

  /** Redacts one text: the block rules on the whole of it, then the line rules on each line. */
  redact(text: string, kind: TextKind, file: string, findings: readonly PresetFinding[] = []): string {
    let out = text;
    const lineRules: RedactionRule[] = [];
    for (const rule of this.rules) {
      if (!rule.applies(kind)) continue;
      if (rule.scope === 'block') out = this.run(rule, out, file);
      else lineRules.push(rule);
    }
    if (lineRules.length === 0 && findings.length === 0) return out;
    return out
      .split('\n')
      .map((line) =>
        this.wholeRecord(
          lineRules.reduce((l, rule) => this.run(rule, l, file), line),
          findings,
        ),
      )
      .join('\n');
  }

  /** A record (a line, a value) still holding what the preset found: replaced whole, its indentation kept. */
  private wholeRecord(line: string, findings: readonly PresetFinding[]): string {
    const found = findings.find((f) => line.includes(f.text));
    if (!found) return line;
    this.counts[found.kind] += 1;
    return `${/^\s*/.exec(line)![0]}[redacted:${found.kind}]`;
  }

  /** Runs one rule; a rule that throws is recorded as a failure (the archive is then not marked redacted). */
  private run(rule: RedactionRule, text: string, file: string): string {
    try {
      return rule.apply(text, (_found, kind = rule.kind) => {
        this.counts[kind] += 1;
        return `[redacted:${kind}]`;
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (!this.failures.some((f) => f.kind === rule.kind && f.file === file && f.message === message))
        this.failures.push({ kind: rule.kind, file, message });
      return text;
    }
  }

  private checkParses(file: string, parse: () => unknown): void {
    try {
      parse();
    } catch (err) {
      this.failures.push({ kind: 'structure', file, message: `no longer parses after redaction: ${(err as Error).message}` });
    }
  }
}

const fail = (): never => {
  throw new Error('not YAML');
};
