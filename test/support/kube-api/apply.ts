// `kubectl apply -f` for tests: each document of a multi-document YAML created, or updated by a three-way merge.
import type { KubeConfig } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { KubeRequestError, kubeJson } from './rest-client.js';
import type { KubeObject } from './types.js';
import { clone, isPlainObject } from './types.js';

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

export interface AppliedObject {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  action: 'created' | 'configured' | 'unchanged';
  object: KubeObject;
}

interface ApiResource {
  name: string;
  kind: string;
  namespaced: boolean;
}

/** The documents of a YAML stream, `kind: List` flattened, empty documents dropped. */
export const parseManifests = (yamlText: string): KubeObject[] =>
  parseAllDocuments(yamlText)
    .map((d) => {
      if (d.errors.length) throw new Error(`invalid YAML: ${d.errors[0]?.message}`);
      return d.toJS() as unknown;
    })
    .filter(isPlainObject)
    .flatMap((d) =>
      typeof d.kind === 'string' && d.kind.endsWith('List') && Array.isArray(d.items) ? (d.items as KubeObject[]) : [d as KubeObject],
    );

/** kubectl's merge for apply: fields of the new config win, fields only the last applied config had are removed. */
export const threeWayMerge = (current: unknown, last: unknown, desired: unknown): unknown => {
  if (!isPlainObject(desired) || !isPlainObject(current)) return clone(desired);
  const out: Record<string, unknown> = { ...current };
  for (const [k, v] of Object.entries(desired)) out[k] = threeWayMerge(current[k], isPlainObject(last) ? last[k] : undefined, v);
  if (isPlainObject(last)) for (const k of Object.keys(last)) if (!(k in desired)) delete out[k];
  return out;
};

const gvPath = (apiVersion: string): string => (apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`);

export const applyManifests = async (kc: KubeConfig, yamlText: string, defaultNamespace = 'default'): Promise<AppliedObject[]> => {
  const discovery = new Map<string, ApiResource[]>();
  const resolve = async (apiVersion: string, kind: string): Promise<ApiResource> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (!discovery.has(apiVersion)) {
        try {
          discovery.set(apiVersion, (await kubeJson<{ resources: ApiResource[] }>(kc, 'GET', gvPath(apiVersion))).resources);
        } catch (e) {
          if (!(e instanceof KubeRequestError && e.code === 404)) throw e;
        }
      }
      const found = discovery.get(apiVersion)?.find((r) => r.kind === kind && !r.name.includes('/'));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matches for kind "${kind}" in version "${apiVersion}"`);
      discovery.delete(apiVersion); // a CRD applied just before may still be getting established
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  const results: AppliedObject[] = [];
  for (const doc of parseManifests(yamlText)) {
    const apiVersion = String(doc.apiVersion ?? '');
    const kind = String(doc.kind ?? '');
    const name = doc.metadata?.name ?? '';
    if (!apiVersion || !kind || !name)
      throw new Error(`a document lacks apiVersion, kind or metadata.name: ${JSON.stringify(doc).slice(0, 200)}`);
    const res = await resolve(apiVersion, kind);
    const desired = clone(doc);
    const namespace = res.namespaced ? (desired.metadata?.namespace ?? defaultNamespace) : undefined;
    desired.metadata = { ...desired.metadata, ...(namespace ? { namespace } : {}) };
    if (!res.namespaced) delete desired.metadata.namespace;
    const annotated = clone(desired);
    annotated.metadata = {
      ...annotated.metadata,
      annotations: { ...annotated.metadata?.annotations, [LAST_APPLIED]: `${JSON.stringify(desired)}\n` },
    };
    const collection = `${gvPath(apiVersion)}${namespace ? `/namespaces/${encodeURIComponent(namespace)}` : ''}/${res.name}`;
    const item = `${collection}/${encodeURIComponent(name)}`;
    const base = { apiVersion, kind, name, ...(namespace ? { namespace } : {}) };

    for (let attempt = 0; ; attempt++) {
      let current: KubeObject | undefined;
      try {
        current = await kubeJson<KubeObject>(kc, 'GET', item);
      } catch (e) {
        if (!(e instanceof KubeRequestError && e.code === 404)) throw e;
      }
      try {
        if (!current) {
          results.push({ ...base, action: 'created', object: await kubeJson<KubeObject>(kc, 'POST', collection, annotated) });
        } else {
          const lastText = current.metadata?.annotations?.[LAST_APPLIED];
          const last: unknown = lastText ? JSON.parse(lastText) : undefined;
          const merged = threeWayMerge(current, last, annotated) as KubeObject;
          merged.metadata = { ...merged.metadata, resourceVersion: current.metadata?.resourceVersion ?? '' };
          if (JSON.stringify(merged) === JSON.stringify(current)) {
            results.push({ ...base, action: 'unchanged', object: current });
          } else {
            results.push({ ...base, action: 'configured', object: await kubeJson<KubeObject>(kc, 'PUT', item, merged) });
          }
        }
        break;
      } catch (e) {
        const retriable = e instanceof KubeRequestError && e.code === 409 && attempt < 5;
        if (!retriable) throw e;
      }
    }
  }
  return results;
};
