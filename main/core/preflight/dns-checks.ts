// Forward and reverse DNS of the cluster's registered FQDN and address, asked of the console's DNS servers.
// A failure fails the operation under every profile but development, where it only warns.
import { bilingual } from '../checks/bilingual';
import type { ClusterRecord } from '../store/clusters-table';
import { dnsIsCritical } from '../profiles/profile-rules';
import { forwardMatches, resolveForward, resolveReverse, reverseMatches } from '../checks/dns-check';
import type { CheckResult } from '../checks/check-types';
import { check, why } from '../checks/check';

const T = {
  forward: bilingual(
    'Forward DNS: the FQDN resolves to the registered address',
    "DNS direct : le FQDN se résout vers l'adresse enregistrée",
  ),
  reverse: bilingual('Reverse DNS: the address resolves to the FQDN', "DNS inverse : l'adresse se résout vers le FQDN"),
};

export async function dnsChecks(cluster: ClusterRecord, servers: string[], at: () => string, timeoutMs?: number): Promise<CheckResult[]> {
  const failing = dnsIsCritical(cluster.profile) ? 'fail' : 'warn';
  const resolvers = servers.length ? servers : ['system resolvers'];
  if (!cluster.fqdn || !cluster.address) {
    const evidence = { method: 'read the FQDN and address registered for the cluster', fqdn: cluster.fqdn, address: cluster.address };
    const reason = why(
      'the cluster has no registered FQDN and address (Profile tab)',
      "le cluster n'a pas de FQDN et d'adresse enregistrés (onglet Profil)",
    );
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
          ? why(`${cluster.fqdn} does not resolve: ${fwd.message}`, `${cluster.fqdn} ne se résout pas : ${fwd.message}`)
          : why(
              `${cluster.fqdn} resolves to ${fwd.answers.join(', ')}, not ${cluster.address}`,
              `${cluster.fqdn} se résout vers ${fwd.answers.join(', ')}, pas ${cluster.address}`,
            ),
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
          ? why(`${cluster.address} has no PTR record: ${rev.message}`, `${cluster.address} n'a pas d'enregistrement PTR : ${rev.message}`)
          : why(
              `${cluster.address} resolves to ${rev.answers.join(', ')}, not ${cluster.fqdn}`,
              `${cluster.address} se résout vers ${rev.answers.join(', ')}, pas ${cluster.fqdn}`,
            ),
        at(),
      );
  return [forward, reverse];
}
