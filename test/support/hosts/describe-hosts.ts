// describe() for suites that boot test hosts: skipped with the reason where hosts cannot run, failed under CI.
import { describe, it } from 'vitest';
import { hostsAvailable } from './available';

/**
 * describe() for a suite that boots hosts. Where hosts cannot run, the suite is skipped with the reason in
 * its title, except under CI (CI set), where the missing piece is a failure: CI must run the hosts suites.
 */
export function describeHosts(name: string, body: () => void): void {
  const a = hostsAvailable();
  if (a.ok) describe(name, body);
  else if (process.env.CI) describe(name, () => it('has what test hosts need', () => Promise.reject(new Error(a.reason))));
  else describe.skip(`${name} (skipped: ${a.reason})`, body);
}
