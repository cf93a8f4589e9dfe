// The rules on the manager's own state: the accounts' second factors and approvers, the sandbox flags, and the
// catalog with the components of the desired state.
import { checkComponentSpec } from '../commands/component-spec';
import { loadBuiltinCatalog } from '../catalog/catalog-builtin';
import { describeProblem } from '../catalog/catalog-loader';
import type { CheckResult } from '../../contract/check-types';
import { MFA_ROLES } from './profile-rules';
import { TEXT } from './profile-texts';
import { result, type RuleContext } from './rule-context';

export function mfaRule(ctx: RuleContext, id: 'mfa_admin_roles' | 'mfa_local_admins', at: string): CheckResult {
  // The roles the login demands a second factor of under this profile: every account holding one must have it.
  const roles: readonly string[] = MFA_ROLES[ctx.cluster.profile];
  const accounts = ctx.deps.accounts.mfaEnrolment().filter((a) => roles.includes(a.role));
  const missing = accounts.filter((a) => !a.enrolled).map((a) => a.name);
  const evidence = { method: 'read the TOTP enrolment of every local account with these roles', roles, accounts };
  if (missing.length === 0) return result(id, 'pass', evidence, null, at);
  return result(id, 'fail', evidence, TEXT.noTotp(missing.join(', ')), at);
}

export function noSandbox(ctx: RuleContext, at: string): CheckResult {
  const sandboxes = [
    ...new Set([...Object.entries(ctx.desired), ...Object.entries(ctx.observed)].filter(([, s]) => s.sandbox === true).map(([n]) => n)),
  ];
  const evidence = {
    method: 'read the sandbox flag of every component in the desired state and in the cluster (agent report)',
    components: [...new Set([...Object.keys(ctx.desired), ...Object.keys(ctx.observed)])],
    sandboxes,
  };
  if (sandboxes.length === 0) return result('no_sandbox', 'pass', evidence, null, at);
  return result('no_sandbox', 'fail', evidence, TEXT.sandboxesPresent(sandboxes.join(', ')), at);
}

export function fourEyes(ctx: RuleContext, at: string): CheckResult {
  const admins = ctx.deps.accounts
    .mfaEnrolment()
    .filter((a) => a.role === 'admin')
    .map((a) => a.name);
  const evidence = { method: 'counted the admins who can approve (an approval needs an admin other than the requester)', admins };
  if (admins.length >= 2) return result('four_eyes', 'pass', evidence, null, at);
  return result('four_eyes', 'fail', evidence, TEXT.secondAdminNeeded(admins.length), at);
}

/**
 * The catalog itself (every descriptor of resources/catalog against the schema and the cross-checks), then each
 * component of the desired state: a service of the catalog with a valid spec. A version the catalog does not
 * declare only warns: nothing is known of its artifacts, checks or upgrades, but the spec may name its images.
 */
export function catalogValid(ctx: RuleContext, at: string): CheckResult {
  const load = ctx.deps.catalog ?? loadBuiltinCatalog();
  const invalid: { component: string; problem: string }[] = [];
  const undeclared: { component: string; service: string; version: string; declared: string[] }[] = [];
  if (!load.ok) {
    const problems = load.error.problems;
    const list = problems.map(describeProblem).join('; ');
    return result(
      'catalog_valid',
      'fail',
      { method: 'validated every catalog descriptor against the schema and the cross-checks', catalog: { valid: false, problems } },
      TEXT.catalogInvalid(list),
      at,
    );
  }
  const catalog = load.catalog;
  for (const [name, spec] of Object.entries(ctx.desired)) {
    try {
      checkComponentSpec(spec);
    } catch (error) {
      invalid.push({ component: name, problem: (error as Error).message });
      continue;
    }
    const service = catalog.service(String(spec.component));
    if (!service) {
      invalid.push({ component: name, problem: `${String(spec.component)} is not a service of the catalog` });
      continue;
    }
    const version = String((spec as { version?: unknown }).version);
    if (!catalog.version(service.service, version))
      undeclared.push({ component: name, service: service.service, version, declared: service.versions.map((v) => v.version) });
  }
  const evidence = {
    method:
      'validated every catalog descriptor (schema and cross-checks), then checked every component of the desired state against the catalog and the ManagedComponent schema',
    catalog: { valid: true, digest: catalog.digest, files: catalog.sources },
    components: Object.keys(ctx.desired),
    invalid,
    undeclared_versions: undeclared,
  };
  if (invalid.length > 0) {
    const list = invalid.map((i) => `${i.component}: ${i.problem}`).join('; ');
    return result('catalog_valid', 'fail', evidence, TEXT.componentsInvalid(list), at);
  }
  if (undeclared.length > 0) return result('catalog_valid', 'warn', evidence, TEXT.versionsUndeclared(undeclared), at);
  return result('catalog_valid', 'pass', evidence, null, at);
}
