// The message tables of the checks: every text exists in English and in French, built from the same values.
import { describe, expect, it } from 'vitest';
import { bilingual, bilingualTexts, type Bilingual } from '../../../../main/contract/bilingual';
import { TEXT as CHECK_TEXT } from '../../../../main/core/checks/check-texts';
import { TEXT as PREFLIGHT_TEXT } from '../../../../main/core/preflight/preflight-texts';
import { RULE_TITLES, TEXT as RULE_TEXT } from '../../../../main/core/profiles/profile-texts';
import { TEXT as LINE_TEXT } from '../../../../main/core/reports/line-texts';

/** The texts built from lists take a list of sample values. */
const LIST_SAMPLES: Record<string, unknown[]> = {
  notResolved: [[{ image: '«1»', notFound: false, problem: '«2»' }]],
  problems: [['«1»', '«2»']],
  artifactProblems: [['«1»', '«2»']],
  versionsUndeclared: [[{ component: '«1»', service: '«2»', version: '«3»', declared: ['3.4.23-1'] }]],
};

/** Every entry of a table, functions called with sample values of each parameter. */
function entries(table: Record<string, unknown>): [string, Bilingual][] {
  return Object.entries(table).map(([key, v]) => {
    const sample = LIST_SAMPLES[key] ?? ['«1»', '«2»', '«3»'];
    const text = typeof v === 'function' ? (v as (...a: unknown[]) => Bilingual)(...sample) : (v as Bilingual);
    return [key, text];
  });
}

describe('bilingual message tables', () => {
  it('give each entry in both languages, with the values in both', () => {
    const t = bilingualTexts(
      { title: 'Nodes Ready', missing: (n: string, ns: string) => `${n} is not in ${ns}` },
      { title: 'Nœuds prêts', missing: (n: string, ns: string) => `${n} n'est pas dans ${ns}` },
    );
    expect(t.title).toEqual(bilingual('Nodes Ready', 'Nœuds prêts'));
    expect(t.missing('opa', 'navin-platform')).toEqual({
      en: 'opa is not in navin-platform',
      fr: "opa n'est pas dans navin-platform",
    });
  });

  it.each([
    ['checks', CHECK_TEXT],
    ['preflight', PREFLIGHT_TEXT],
    ['profile rules', RULE_TEXT],
    ['rule titles', RULE_TITLES],
    ['report lines', LINE_TEXT],
  ])('the %s table has a French text for every English one', (_name, table) => {
    const list = entries(table as unknown as Record<string, unknown>);
    expect(list.length).toBeGreaterThan(0);
    for (const [key, text] of list) {
      expect(text.en, key).not.toBe('');
      expect(text.fr, key).not.toBe('');
      // A value named in English is named in French too.
      for (const value of ['«1»', '«2»', '«3»']) expect(text.fr.includes(value), `${key}: ${value}`).toBe(text.en.includes(value));
    }
  });
});
