// The shapes of third-party credentials, kept as data (secret-rules.json) beside the console's own rules, so a
// newer set can replace it without a code change. A set is checked whole before use: a rule that does not
// compile, could match an empty string or names an unknown kind refuses the whole set, never half of it.
import { z } from 'zod';
import { ValidationError } from '../errors';
import defaults from './secret-rules.json';

export const SECRET_RULES_FORMAT = 'navin-secret-rules/1';

const ruleSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/),
  kind: z.enum(['token', 'credential', 'private_key']),
  regex: z.string().min(1).max(2000),
  /** Lower-case strings, one of which a record must hold for the rule to be tried (as gitleaks' keywords). */
  keywords: z.array(z.string().min(1).max(64)).min(1),
  /** The group that holds the secret itself; 1 unless said (the whole match when the regex has no group). */
  secretGroup: z.number().int().min(0).max(9).optional(),
});

const setSchema = z.object({
  format: z.literal(SECRET_RULES_FORMAT),
  about: z.string().optional(),
  rules: z.array(ruleSchema).min(1).max(1000),
});

export interface SecretRule {
  id: string;
  kind: 'token' | 'credential' | 'private_key';
  pattern: RegExp;
  keywords: string[];
  group: number;
}

/** Checks and compiles a rule set; throws `invalid_field` naming the first rule at fault. */
export function loadSecretRules(data: unknown): SecretRule[] {
  const parsed = setSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ValidationError('secret_rules', `secret rule set: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const ids = new Set<string>();
  return parsed.data.rules.map((r) => {
    if (ids.has(r.id)) throw new ValidationError('secret_rules', `secret rule set: rule ${r.id} is given twice`);
    ids.add(r.id);
    let pattern: RegExp;
    try {
      pattern = new RegExp(r.regex, 'g');
    } catch (err) {
      throw new ValidationError('secret_rules', `secret rule set: rule ${r.id} does not compile: ${(err as Error).message}`);
    }
    if (new RegExp(`^(?:${r.regex})$`).test(''))
      throw new ValidationError('secret_rules', `secret rule set: rule ${r.id} matches an empty string`);
    const groups = new RegExp(`${r.regex}|`).exec('')!.length - 1;
    const group = r.secretGroup ?? (groups > 0 ? 1 : 0);
    if (group > groups) throw new ValidationError('secret_rules', `secret rule set: rule ${r.id} has no group ${group}`);
    return { id: r.id, kind: r.kind, pattern, keywords: r.keywords.map((k) => k.toLowerCase()), group };
  });
}

/** The set shipped with the console. */
export const DEFAULT_SECRET_RULES: readonly SecretRule[] = loadSecretRules(defaults);
