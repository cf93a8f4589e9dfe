// What the real controllers do around writes: namespace defaults and deletion, garbage collection by ownerReferences.
import type { Engine } from './engine.js';
import type { ResourceType, StoredObject } from './types.js';
import { clone, nowTimestamp, storageKey } from './types.js';

export const isTerminating = (ns: StoredObject): boolean =>
  !!ns.metadata.deletionTimestamp || (ns.status as { phase?: string } | undefined)?.phase === 'Terminating';

const core = (engine: Engine, plural: string): ResourceType | undefined => engine.registry.find('', 'v1', plural);

/** The serviceaccount and root-CA-publisher controllers: `default` ServiceAccount, `kube-root-ca.crt` ConfigMap. */
export const namespaceDefaults = (engine: Engine, namespace: string): void => {
  const sa = core(engine, 'serviceaccounts');
  const cm = core(engine, 'configmaps');
  if (sa && !engine.find(sa, namespace, 'default')) engine.create(sa, namespace, { metadata: { name: 'default' } });
  if (cm && !engine.find(cm, namespace, 'kube-root-ca.crt')) {
    engine.create(cm, namespace, {
      metadata: {
        name: 'kube-root-ca.crt',
        annotations: {
          'kubernetes.io/description':
            'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.',
        },
      },
      data: { 'ca.crt': engine.options.caPem },
    });
  }
};

/** The namespace controller: everything in the namespace goes (finalizers notwithstanding), then the namespace. */
export const cascadeNamespace = (engine: Engine, namespace: string): void => {
  for (const key of engine.store.keys()) {
    if (key === '/namespaces') continue;
    for (const o of engine.store.list(key, namespace)) {
      if (o.metadata.namespace === namespace) engine.store.remove(key, namespace, o.metadata.name);
    }
  }
  engine.store.remove('/namespaces', undefined, namespace);
};

/** Background cascading deletion: dependents whose ownerReferences name the removed object go too. */
export const collectGarbage = (engine: Engine, owner: StoredObject): void => {
  const seen = new Set<string>();
  for (const rt of engine.registry.all()) {
    const key = storageKey(rt);
    if (rt.virtual || seen.has(key)) continue;
    seen.add(key);
    for (const o of engine.store.list(key)) {
      if (!o.metadata.ownerReferences?.some((r) => r.uid === owner.metadata.uid)) continue;
      if (owner.metadata.namespace && o.metadata.namespace !== owner.metadata.namespace) continue;
      if ((o.metadata.finalizers ?? []).length > 0) {
        if (o.metadata.deletionTimestamp) continue;
        const marked = clone(o);
        marked.metadata.deletionTimestamp = nowTimestamp();
        engine.store.put(key, marked);
      } else engine.removeNow(rt, o);
    }
  }
};
