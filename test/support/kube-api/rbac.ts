// RBAC evaluation over the stored Roles, ClusterRoles and bindings, with the rule matching of the real authorizer.
import { labelSelector } from './selectors.js';
import type { KubeObject, UserInfo } from './types.js';

/** authorizer.Attributes: what a request asks for. */
export interface Attributes {
  user: UserInfo;
  verb: string;
  resourceRequest: boolean;
  /** Non-resource requests: the URL path. */
  path: string;
  namespace: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  name: string;
}

export interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

interface Subject {
  kind: string;
  name: string;
  namespace?: string;
}

interface Binding extends KubeObject {
  roleRef?: { kind: string; name: string };
  subjects?: Subject[];
}

/** What the authorizer reads: the four RBAC kinds, straight from the store. */
export interface RbacSource {
  clusterRoles(): KubeObject[];
  clusterRoleBindings(): Binding[];
  roles(namespace: string): KubeObject[];
  roleBindings(namespace: string): Binding[];
}

export interface Decision {
  allowed: boolean;
  reason: string;
}

const has = (list: string[] | undefined, v: string): boolean => !!list && (list.includes('*') || list.includes(v));

const resourceMatches = (rule: PolicyRule, resource: string, subresource: string): boolean => {
  const combined = subresource ? `${resource}/${subresource}` : resource;
  return (rule.resources ?? []).some((r) => r === '*' || r === combined || (subresource !== '' && r === `*/${subresource}`));
};

const nonResourceMatches = (rule: PolicyRule, path: string): boolean =>
  (rule.nonResourceURLs ?? []).some((u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.slice(0, -1))));

export const ruleAllows = (a: Attributes, rule: PolicyRule): boolean => {
  if (!has(rule.verbs, a.verb)) return false;
  if (!a.resourceRequest) return nonResourceMatches(rule, a.path);
  return (
    has(rule.apiGroups, a.apiGroup) &&
    resourceMatches(rule, a.resource, a.subresource) &&
    (!rule.resourceNames?.length || rule.resourceNames.includes(a.name))
  );
};

const appliesTo = (user: UserInfo, s: Subject, bindingNamespace: string): boolean => {
  switch (s.kind) {
    case 'User':
      return s.name === user.username;
    case 'Group':
      return user.groups.includes(s.name);
    case 'ServiceAccount':
      return user.username === `system:serviceaccount:${s.namespace || bindingNamespace}:${s.name}`;
    default:
      return false;
  }
};

const subjectText = (s: Subject, ns: string): string =>
  s.kind === 'ServiceAccount' ? `ServiceAccount "${s.name}/${s.namespace || ns}"` : `${s.kind} "${s.name}"`;

export class RbacAuthorizer {
  constructor(private readonly source: RbacSource) {}

  /** A ClusterRole's rules, with the aggregated roles' rules for one with an aggregationRule. */
  private clusterRoleRules(name: string): PolicyRule[] | undefined {
    const all = this.source.clusterRoles();
    const role = all.find((r) => r.metadata?.name === name);
    if (!role) return undefined;
    const own = (role.rules as PolicyRule[] | undefined) ?? [];
    const agg = role.aggregationRule as { clusterRoleSelectors?: { matchLabels?: Record<string, string> }[] } | undefined;
    if (!agg?.clusterRoleSelectors) return own;
    const selectors = agg.clusterRoleSelectors.map((s) =>
      labelSelector(
        Object.entries(s.matchLabels ?? {})
          .map(([k, v]) => `${k}=${v}`)
          .join(','),
      ),
    );
    const extra = all
      .filter((r) => r.metadata?.name !== name && selectors.some((m) => m(r)))
      .flatMap((r) => (r.rules as PolicyRule[] | undefined) ?? []);
    return [...own, ...extra];
  }

  /** Every rule that applies to the user, cluster-wide and, when namespace is set, in that namespace. */
  rulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; origin: string }[] {
    if (user.groups.includes('system:masters')) {
      return [
        {
          rules: [
            { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
            { verbs: ['*'], nonResourceURLs: ['*'] },
          ],
          origin: 'system:masters',
        },
      ];
    }
    const out: { rules: PolicyRule[]; origin: string }[] = [];
    for (const b of this.source.clusterRoleBindings()) {
      const s = (b.subjects ?? []).find((x) => appliesTo(user, x, ''));
      if (!s || b.roleRef?.kind !== 'ClusterRole') continue;
      const rules = this.clusterRoleRules(b.roleRef.name);
      if (rules)
        out.push({ rules, origin: `ClusterRoleBinding "${b.metadata?.name}" of ClusterRole "${b.roleRef.name}" to ${subjectText(s, '')}` });
    }
    if (!namespace) return out;
    for (const b of this.source.roleBindings(namespace)) {
      const s = (b.subjects ?? []).find((x) => appliesTo(user, x, namespace));
      if (!s || !b.roleRef) continue;
      const rules =
        b.roleRef.kind === 'ClusterRole'
          ? this.clusterRoleRules(b.roleRef.name)
          : ((this.source.roles(namespace).find((r) => r.metadata?.name === b.roleRef?.name)?.rules as PolicyRule[] | undefined) ??
            undefined);
      // A RoleBinding grants resource rules only, and only inside its namespace.
      if (rules) {
        out.push({
          rules: rules.filter((r) => !r.nonResourceURLs?.length),
          origin: `RoleBinding "${b.metadata?.name}/${namespace}" of ${b.roleRef.kind} "${b.roleRef.name}" to ${subjectText(s, namespace)}`,
        });
      }
    }
    return out;
  }

  authorize(a: Attributes): Decision {
    if (a.user.groups.includes('system:masters')) return { allowed: true, reason: '' };
    for (const { rules, origin } of this.rulesFor(a.user, a.resourceRequest ? a.namespace : '')) {
      if (rules.some((r) => ruleAllows(a, r))) return { allowed: true, reason: `RBAC: allowed by ${origin}` };
    }
    return { allowed: false, reason: '' };
  }
}

/** authorization.forbiddenMessage(): the text after `is forbidden: ` in a 403. */
export const forbiddenMessage = (a: Attributes): string => {
  if (!a.resourceRequest) return `User "${a.user.username}" cannot ${a.verb} path "${a.path}"`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return a.namespace
    ? `User "${a.user.username}" cannot ${a.verb} resource "${resource}" in API group "${a.apiGroup}" in the namespace "${a.namespace}"`
    : `User "${a.user.username}" cannot ${a.verb} resource "${resource}" in API group "${a.apiGroup}" at the cluster scope`;
};
