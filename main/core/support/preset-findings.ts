// The maintained rule set beside the console's own: secretlint's recommended preset (AWS, GCP, GitHub, npm, Slack,
// SendGrid, Shopify, OpenAI, Anthropic, Linear, 1Password, private keys, basic auth, database connection strings),
// run over a whole file before its records are redacted. It is asynchronous, so it reports the texts it found and
// the redactor, synchronous, replaces every record that still holds one of them once the console's rules ran.
import { lintSource } from '@secretlint/core';
import { rules } from '@secretlint/secretlint-rule-preset-recommend';
import type { RedactionKind } from './redact-types';

export interface PresetFinding {
  /** The preset's rule that found it (`@secretlint/secretlint-rule-slack`). */
  ruleId: string;
  kind: Extract<RedactionKind, 'token' | 'credential' | 'private_key'>;
  /** What it found, as the file holds it (one line of it when the finding spans lines). */
  text: string;
}

// Every rule of the preset but the one that obeys `secretlint-disable` comments: a log line is written by whoever
// the service answered, and must not be able to hide the next one's token.
const CONFIG = {
  rules: rules.filter((r) => !r.meta.id.endsWith('/secretlint-rule-filter-comments')).map((r) => ({ id: r.meta.id, rule: r })),
};
/** An armour line of a key names no secret: the body lines around it are what must go. */
const ARMOUR = /^-----(?:BEGIN|END)[ A-Z]*-----$/;
/** A piece of a multi-line finding shorter than this could stand for unrelated text elsewhere. */
const MIN_PIECE = 8;

function kindOf(ruleId: string): PresetFinding['kind'] {
  if (/privatekey|gcp/.test(ruleId)) return 'private_key';
  if (/basicauth|database-connection-string/.test(ruleId)) return 'credential';
  return 'token';
}

/** What the preset finds in one text; an error of the preset is thrown (the archive is then not marked redacted). */
export async function presetFindings(text: string): Promise<PresetFinding[]> {
  const result = await lintSource({
    source: { filePath: 'support-file', content: text, contentType: 'text' },
    options: { config: CONFIG, noPhysicFilePath: true },
  });
  const found: PresetFinding[] = [];
  for (const m of result.messages) {
    const kind = kindOf(m.ruleId);
    for (const piece of text.slice(m.range[0], m.range[1]).split('\n')) {
      const p = piece.trim();
      if (p.length >= MIN_PIECE && !ARMOUR.test(p)) found.push({ ruleId: m.ruleId, kind, text: p });
    }
  }
  return found;
}
