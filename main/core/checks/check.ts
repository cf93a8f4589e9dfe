// Building a CheckResult: one helper so every check reports status, criticality and reason the same way.
import type { Bilingual } from '../../contract/bilingual';
import type { CheckResult, CheckStatus } from '../../contract/check-types';

export function check(
  id: string,
  title: Bilingual,
  status: CheckStatus,
  evidence: CheckResult['evidence'],
  reason: Bilingual | null,
  at: string,
): CheckResult {
  return { id, title, status, critical: status === 'fail', reason: status === 'pass' ? null : reason, evidence, ran_at: at };
}
