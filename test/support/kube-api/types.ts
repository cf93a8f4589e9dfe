// Shared shapes of the Kubernetes API test server: objects as stored and served, identities, resource types.

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  [key: string]: unknown;
}

/** Any Kubernetes object as JSON. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [key: string]: unknown;
}

/** An object as the store holds it: every server-managed field is set. */
export interface StoredObject extends KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta & { name: string; uid: string; resourceVersion: string; creationTimestamp: string };
}

/** The authenticated user of a request, as the real authenticators produce it. */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
}

export interface SubresourceDef {
  /** e.g. `status`, `scale`, `token`. */
  name: string;
  kind: string;
  verbs: string[];
  /** Group and version of the subresource's kind when they differ from the parent's (Scale, TokenRequest). */
  group?: string;
  version?: string;
}

export interface PrinterColumn {
  name: string;
  type: string;
  jsonPath: string;
  description?: string;
  priority?: number;
  format?: string;
}

/** One served resource of one group/version: what discovery lists and what the REST handlers serve. */
export interface ResourceType {
  group: string;
  version: string;
  plural: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources: SubresourceDef[];
  /** Create-only review resources (access reviews, token reviews): answered, never stored. */
  virtual?: boolean;
  /** Bump metadata.generation when the content other than metadata (and status, with a status subresource) changes. */
  generation: boolean;
  /** DELETE answers the deleted object instead of a Status (pods, serviceaccounts, namespaces, storageclasses...). */
  returnDeletedObject: boolean;
  /** PUT without metadata.resourceVersion is accepted (false for custom resources and CRDs). */
  allowUnconditionalUpdate: boolean;
  /** Accepts application/strategic-merge-patch+json (built-in kinds only). */
  strategicMerge: boolean;
  /** Field selector labels accepted besides metadata.name and metadata.namespace. */
  fieldLabels: string[];
  /** Set for custom resources: the CRD that defines them and the version's schema and printer columns. */
  crd?: { name: string; schema?: unknown; printerColumns?: PrinterColumn[] };
}

export const hasSubresource = (rt: ResourceType, name: string): boolean => rt.subresources.some((s) => s.name === name);

/** Objects of one group and plural share storage whatever version they are read or written in. */
export const storageKey = (rt: Pick<ResourceType, 'group' | 'plural'>): string => `${rt.group}/${rt.plural}`;

export const groupVersion = (group: string, version: string): string => (group ? `${group}/${version}` : version);

export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const clone = <T>(v: T): T => structuredClone(v);

/** RFC 3339 at second precision, as metav1.Time serialises. */
export const nowTimestamp = (date = new Date()): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** JSON with object keys sorted: equality of content whatever order a client serialised it in. */
export const canonicalJson = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    isPlainObject(x)
      ? Object.fromEntries(
          Object.keys(x)
            .sort()
            .map((k) => [k, x[k]]),
        )
      : x,
  );
