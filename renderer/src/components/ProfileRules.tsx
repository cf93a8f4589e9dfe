// The rules an install profile enforces, as the manager's catalog (GET /profiles) names them, in the operator's
// language; nothing while the catalog is not loaded (the console keeps no list of its own).
import { useEffect, type ReactElement } from 'react';
import type { ProfileName } from '../api/types';
import { consoleSettingsStore, useConsoleSettings, useLocale, useT } from '../app/stores';
import { pickText } from '../lib/bilingual';

/** The catalog, loaded on first use; a profile under which DNS failures only warn says so last. */
export function useProfileRules(profile: ProfileName): string[] | null {
  const locale = useLocale();
  const t = useT();
  const catalog = useConsoleSettings((s) => s.profiles.value);
  useEffect(() => {
    void consoleSettingsStore.getState().loadProfiles();
  }, []);
  const entry = catalog?.items.find((p) => p.name === profile);
  if (!entry) return null;
  const rules = entry.rules.map((r) => pickText(r.title, locale));
  return entry.dns_critical ? rules : [...rules, t('profile.dnsWarnsOnly')];
}

/** The rules as a list. */
export function ProfileRulesList({
  profile,
  label,
  testId,
}: {
  profile: ProfileName;
  label: string;
  testId?: string;
}): ReactElement | null {
  const rules = useProfileRules(profile);
  if (!rules || rules.length === 0) return null;
  return (
    <ul className="profile-rule-list help" aria-label={label} data-testid={testId}>
      {rules.map((r) => (
        <li key={r}>{r}</li>
      ))}
    </ul>
  );
}
