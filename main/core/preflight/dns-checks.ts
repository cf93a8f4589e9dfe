// Forward and reverse DNS of the cluster's registered FQDN and address, asked of the console's DNS servers.
// A failure fails the operation under every profile but development, where it only warns.
import type { ClusterRecord } from '../clusters/clusters-table';
import { dnsIsCritical } from '../profiles/profile-rules';
import { forwardMatches, resolveForward, resolveReverse, reverseMatches } from '../checks/dns-check';
import type { CheckResult } from '../../contract/check-types';
import { check } from '../checks/check';
import { TEXT } from './preflight-texts';

const T = { forward: TEXT.dnsForwardTitle, reverse: TEXT.dnsReverseTitle };

export async function dnsChecks(cluster: ClusterRecord, servers: string[], at: () => string, timeoutMs?: number): Promise<CheckResult[]> {
  const failing = dnsIsCritical(cluster.profile) ? 'fail' : 'warn';
  const resolvers = servers.length ? servers : ['system resolvers'];
  if (!cluster.fqdn || !cluster.address) {
    const evidence = { method: 'read the FQDN and address registered for the cluster', fqdn: cluster.fqdn, address: cluster.address };
    const reason = TEXT.dnsNotRegistered;
    return [
      check('dns.forward', T.forward, failing, evidence, reason, at()),
      check('dns.reverse', T.reverse, failing, evidence, reason, at()),
    ];
  }
  const [fwd, rev] = await Promise.all([
    resolveForward(servers, cluster.fqdn, timeoutMs),
    resolveReverse(servers, cluster.address, timeoutMs),
  ]);
  const forward = forwardMatches(fwd, cluster.address)
    ? check(
        'dns.forward',
        T.forward,
        'pass',
        { method: `A/AAAA query for ${cluster.fqdn}`, resolvers, expected: cluster.address, result: fwd },
        null,
        at(),
      )
    : check(
        'dns.forward',
        T.forward,
        failing,
        { method: `A/AAAA query for ${cluster.fqdn}`, resolvers, expected: cluster.address, result: fwd },
        fwd.error_code
          ? TEXT.fqdnDoesNotResolve(cluster.fqdn, fwd.message)
          : TEXT.fqdnResolvesElsewhere(cluster.fqdn, fwd.answers.join(', '), cluster.address),
        at(),
      );
  const reverse = reverseMatches(rev, cluster.fqdn)
    ? check(
        'dns.reverse',
        T.reverse,
        'pass',
        { method: `PTR query for ${cluster.address}`, resolvers, expected: cluster.fqdn, result: rev },
        null,
        at(),
      )
    : check(
        'dns.reverse',
        T.reverse,
        failing,
        { method: `PTR query for ${cluster.address}`, resolvers, expected: cluster.fqdn, result: rev },
        rev.error_code
          ? TEXT.addressHasNoPtr(cluster.address, rev.message)
          : TEXT.addressResolvesElsewhere(cluster.address, rev.answers.join(', '), cluster.fqdn),
        at(),
      );
  return [forward, reverse];
}
