// How each profile rule is evaluated, always on real state: handshakes with the listeners and endpoints, the
// accounts as they are, the syslog target probed, the components in the desired state and in the cluster.
import type { CheckResult } from '../../contract/check-types';
import type { RuleId } from './profile-rules';
import { TEXT } from './profile-texts';
import { result, type RuleContext } from './rule-context';
import { agentClientCertificates, consoleTls, customerConnectionsTls, endpointsTls } from './tls-rules';
import { mirrorOnly, privateEgress, syslogRule } from './egress-rules';
import { catalogValid, fourEyes, mfaRule, noSandbox } from './state-rules';

export { ruleContext, type RuleContext, type RuleDeps } from './rule-context';

type Rule = (ctx: RuleContext, at: string) => Promise<CheckResult> | CheckResult;

const RULES: Record<RuleId, Rule> = {
  catalog_valid: catalogValid,
  console_tls: consoleTls,
  agent_client_certificates: agentClientCertificates,
  service_tls: (ctx, at) => endpointsTls(ctx, 'service_tls', at),
  endpoint_tls: (ctx, at) => endpointsTls(ctx, 'endpoint_tls', at),
  mfa_admin_roles: (ctx, at) => mfaRule(ctx, 'mfa_admin_roles', at),
  mfa_local_admins: (ctx, at) => mfaRule(ctx, 'mfa_local_admins', at),
  mirror_only: mirrorOnly,
  syslog_remote_audit: syslogRule,
  no_sandbox: noSandbox,
  four_eyes: fourEyes,
  private_egress: privateEgress,
  customer_connections_tls: customerConnectionsTls,
};

/** A rule that cannot run (an unreadable stored value, a probe that throws) fails with that reason. */
export async function evaluateRule(id: RuleId, ctx: RuleContext): Promise<CheckResult> {
  const at = ctx.deps.clock.now().toISOString();
  try {
    return await RULES[id](ctx, at);
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    return result(id, 'fail', { method: 'the rule could not run', error: message }, TEXT.checkCouldNotRun(message), at);
  }
}
