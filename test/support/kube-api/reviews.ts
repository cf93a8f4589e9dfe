// Answers of the create-only APIs: TokenRequest, Self/Local/SubjectAccessReview, SelfSubjectRulesReview, Self/TokenReview.
import type { Authenticator } from './authn.js';
import type { Engine } from './engine.js';
import type { Attributes, RbacAuthorizer } from './rbac.js';
import * as errors from './status.js';
import type { KubeObject, UserInfo } from './types.js';
import { isPlainObject } from './types.js';

interface ReviewContext {
  engine: Engine;
  authn: Authenticator;
  rbac: RbacAuthorizer;
  user: UserInfo;
}

interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

const attributes = (user: UserInfo, spec: Record<string, unknown>): Attributes => {
  const r = spec.resourceAttributes as ResourceAttributes | undefined;
  const n = spec.nonResourceAttributes as { path?: string; verb?: string } | undefined;
  if (r) {
    return {
      user,
      verb: r.verb ?? '',
      resourceRequest: true,
      path: '',
      namespace: r.namespace ?? '',
      apiGroup: r.group ?? '',
      apiVersion: r.version ?? '',
      resource: r.resource ?? '',
      subresource: r.subresource ?? '',
      name: r.name ?? '',
    };
  }
  return {
    user,
    verb: n?.verb ?? '',
    resourceRequest: false,
    path: n?.path ?? '',
    namespace: '',
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    name: '',
  };
};

const accessReview = (ctx: ReviewContext, body: KubeObject, kind: string, subject: UserInfo, namespace?: string): object => {
  const spec = (isPlainObject(body.spec) ? body.spec : {}) as Record<string, unknown>;
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
    throw errors.invalid({ group: 'authorization.k8s.io', kind }, '', [
      {
        type: 'Required',
        field: 'spec.resourceAttributes',
        detail: 'exactly one of nonResourceAttributes or resourceAttributes must be specified',
      },
    ]);
  }
  const a = attributes(subject, spec);
  if (namespace !== undefined) a.namespace = namespace;
  const d = ctx.rbac.authorize(a);
  return {
    kind,
    apiVersion: 'authorization.k8s.io/v1',
    metadata: { ...body.metadata, creationTimestamp: null },
    spec,
    status: { allowed: d.allowed, ...(d.reason ? { reason: d.reason } : {}) },
  };
};

const userOf = (spec: Record<string, unknown>): UserInfo => ({
  username: String(spec.user ?? ''),
  ...(spec.uid ? { uid: String(spec.uid) } : {}),
  groups: Array.isArray(spec.groups) ? spec.groups.map(String) : [],
});

/** The response body of POST to a virtual (create-only) resource. */
export const review = (ctx: ReviewContext, plural: string, namespace: string, body: KubeObject): object => {
  const spec = (isPlainObject(body.spec) ? body.spec : {}) as Record<string, unknown>;
  switch (plural) {
    case 'selfsubjectaccessreviews':
      return accessReview(ctx, body, 'SelfSubjectAccessReview', ctx.user);
    case 'subjectaccessreviews':
      return accessReview(ctx, body, 'SubjectAccessReview', userOf(spec));
    case 'localsubjectaccessreviews':
      return accessReview(ctx, body, 'LocalSubjectAccessReview', userOf(spec), namespace);
    case 'selfsubjectrulesreviews': {
      const ns = String(spec.namespace ?? '');
      const sets = ctx.rbac.rulesFor(ctx.user, ns).flatMap((s) => s.rules);
      return {
        kind: 'SelfSubjectRulesReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: { creationTimestamp: null },
        spec,
        status: {
          resourceRules: sets
            .filter((r) => !r.nonResourceURLs?.length)
            .map((r) => ({
              verbs: r.verbs ?? [],
              apiGroups: r.apiGroups ?? [],
              resources: r.resources ?? [],
              ...(r.resourceNames?.length ? { resourceNames: r.resourceNames } : {}),
            })),
          nonResourceRules: sets
            .filter((r) => r.nonResourceURLs?.length)
            .map((r) => ({ verbs: r.verbs ?? [], nonResourceURLs: r.nonResourceURLs ?? [] })),
          incomplete: false,
        },
      };
    }
    case 'selfsubjectreviews':
      return {
        kind: 'SelfSubjectReview',
        apiVersion: 'authentication.k8s.io/v1',
        metadata: { creationTimestamp: null },
        status: { userInfo: ctx.user },
      };
    case 'tokenreviews': {
      const user = ctx.authn.authenticate(String(spec.token ?? ''), (ns, name) => ctx.engine.store.get('/serviceaccounts', ns, name));
      return {
        kind: 'TokenReview',
        apiVersion: 'authentication.k8s.io/v1',
        metadata: { creationTimestamp: null },
        spec,
        status: user ? { authenticated: true, user, audiences: ['https://kubernetes.default.svc.cluster.local'] } : { user: {} },
      };
    }
    default:
      throw errors.methodNotAllowed();
  }
};

/** POST serviceaccounts/{name}/token: what `kubectl create token` calls. */
export const tokenRequest = (ctx: ReviewContext, namespace: string, name: string, body: KubeObject): object => {
  const sa = ctx.engine.store.get('/serviceaccounts', namespace, name);
  if (!sa) throw errors.notFound({ group: '', resource: 'serviceaccounts' }, name);
  const spec = (isPlainObject(body.spec) ? body.spec : {}) as { expirationSeconds?: number; audiences?: string[] };
  const expirationSeconds = spec.expirationSeconds ?? 3600;
  if (expirationSeconds < 600) {
    throw errors.invalid({ group: 'authentication.k8s.io', kind: 'TokenRequest' }, name, [
      {
        type: 'Invalid',
        field: 'spec.expirationSeconds',
        value: expirationSeconds,
        detail: 'may not specify a duration less than 10 minutes',
      },
    ]);
  }
  const audiences = spec.audiences?.length ? spec.audiences : ['https://kubernetes.default.svc.cluster.local'];
  const { token, expirationTimestamp } = ctx.authn.issueServiceAccountToken(sa, expirationSeconds, audiences);
  return {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { name, namespace, creationTimestamp: null },
    spec: { audiences, expirationSeconds, boundObjectRef: null },
    status: { token, expirationTimestamp },
  };
};
