// Suites that need something of the machine (the registry binary, kubectl, test hosts, Debian files): where a
// piece is missing the suite is skipped with what is missing in its title, except under CI (CI set), where the
// missing piece is a failure. A suite skipped in CI proves nothing, and nobody reads a skip in a green run.
import { describe, it } from 'vitest';

export type Availability = { ok: true } | { ok: false; reason: string };

/** What becomes of a suite: it runs, or it is skipped or failed with what is missing. */
export type SuitePlan = { run: true } | { run: false; skip: string } | { run: false; fail: string };

export function suitePlan(needs: readonly Availability[], env: NodeJS.ProcessEnv = process.env): SuitePlan {
  const missing = needs.flatMap((n) => (n.ok ? [] : [n.reason])).join('; ');
  if (!missing) return { run: true };
  return env.CI ? { run: false, fail: missing } : { run: false, skip: missing };
}

/**
 * describe() for a suite that needs `needs`: run where all are there; elsewhere skipped with the reason in its
 * title, or, under CI, one failing test that says what is missing.
 */
export function describeNeeding(name: string, needs: readonly Availability[], body: () => void): void {
  const plan = suitePlan(needs);
  if (plan.run) describe(name, body);
  else if ('fail' in plan) describe(name, () => it('has what the suite needs', () => Promise.reject(new Error(plan.fail))));
  else describe.skip(`${name} (skipped: ${plan.skip})`, body);
}
