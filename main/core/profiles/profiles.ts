// Evaluates a cluster's profile now: every rule of its profile, run side by side on real state. Blocked when
// one rule fails; the result says which and why.
import { CoreError, found } from '../errors';
import { FOUR_EYES_ACTIONS } from '../approvals/approvals';
import { BLOCKED_ACTIONS, dnsIsCritical, PROFILE_RULES, requiresFourEyes } from './profile-rules';
import { RULE_TITLES } from './profile-texts';
import type { ProfileCatalogEntry, ProfileEvaluation } from '../../contract/profiles';
import { PROFILES } from '../clusters/profile-names';
import { evaluateRule, ruleContext, type RuleDeps } from './rule-checks';
import type { HostTlsObserve } from './host-tls-observer';

export type { ProfileEvaluation };

export class Profiles {
  constructor(private readonly deps: RuleDeps) {}

  /** A hosts cluster's endpoints are handshaken by its node agents, whose commands are made after the profiles. */
  observeHostTlsWith(observe: HostTlsObserve): void {
    this.deps.hostTls = observe;
  }

  /** With a target, the rules judge the cluster as it will be once that component's spec is written. */
  async evaluate(clusterId: string, target?: { name: string; spec: unknown }): Promise<ProfileEvaluation> {
    const cluster = found(this.deps.tables.clusters.get(clusterId), 'cluster', clusterId);
    const ctx = ruleContext(cluster, this.deps, target);
    const rules = await Promise.all(PROFILE_RULES[cluster.profile].map((id) => evaluateRule(id, ctx)));
    const fourEyes = requiresFourEyes(cluster.profile);
    return {
      cluster_id: cluster.id,
      profile: cluster.profile,
      status: rules.some((r) => r.status === 'fail') ? 'blocked' : 'compliant',
      rules,
      four_eyes: fourEyes,
      four_eyes_actions: fourEyes ? [...FOUR_EYES_ACTIONS] : [],
      evaluated_at: this.deps.clock.now().toISOString(),
    };
  }

  /**
   * The refusal of an operation the spec forbids while the profile is blocked (BLOCKED_ACTIONS), the rules
   * judged now; null when the action stays possible or every rule is met. Every path that can run one of these
   * operations asks, raw plans included: a path that skipped it let an administrator act on a blocked cluster.
   */
  async blockedRefusal(clusterId: string, action: string, target?: { name: string; spec: unknown }): Promise<CoreError | null> {
    if (!BLOCKED_ACTIONS.has(action)) return null;
    const evaluation = await this.evaluate(clusterId, target);
    if (evaluation.status !== 'blocked') return null;
    const failing = evaluation.rules.filter((r) => r.status === 'fail');
    return new CoreError(
      'profile_blocked',
      `the ${evaluation.profile} profile of this cluster is blocked (${failing.map((r) => r.id).join(', ')}): ${action} is refused until every rule is met`,
      { profile: evaluation.profile, action, failing },
    );
  }

  /** The catalog of profiles and their rules, for the console's wizard and Profile tab. */
  catalog(): ProfileCatalogEntry[] {
    return PROFILES.map((name) => ({
      name,
      rules: PROFILE_RULES[name].map((id) => ({ id: `profile.${id}`, title: RULE_TITLES[id] })),
      dns_critical: dnsIsCritical(name),
      four_eyes: requiresFourEyes(name),
    }));
  }
}
