// describe() for suites that boot test hosts: skipped with the reason where hosts cannot run, failed under CI.
import { hostsAvailable } from './available';
import { describeNeeding } from '../needs';

/** describe() for a suite that boots hosts (test/support/needs.ts says how a missing piece is treated). */
export function describeHosts(name: string, body: () => void): void {
  describeNeeding(name, [hostsAvailable()], body);
}
