// CustomResourceDefinitions: the resource types a CRD serves, its status, and structural-schema pruning and validation.
import type { FieldError } from './status.js';
import type { KubeObject, PrinterColumn, ResourceType, SubresourceDef } from './types.js';
import { isPlainObject } from './types.js';

interface CrdNames {
  plural?: string;
  singular?: string;
  kind?: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

interface CrdVersion {
  name: string;
  served?: boolean;
  storage?: boolean;
  schema?: { openAPIV3Schema?: Schema };
  subresources?: { status?: object; scale?: object };
  additionalPrinterColumns?: PrinterColumn[];
}

export interface CrdSpec {
  group?: string;
  names?: CrdNames;
  scope?: string;
  versions?: CrdVersion[];
}

export interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
}

const spec = (crd: KubeObject): CrdSpec => (crd.spec as CrdSpec | undefined) ?? {};

/** apiextensions validation of the parts the server relies on. */
export const validateCrd = (crd: KubeObject): FieldError[] => {
  const s = spec(crd);
  const errors: FieldError[] = [];
  const plural = s.names?.plural ?? '';
  if (!s.group) errors.push({ type: 'Required', field: 'spec.group' });
  if (!plural) errors.push({ type: 'Required', field: 'spec.names.plural' });
  if (!s.names?.kind) errors.push({ type: 'Required', field: 'spec.names.kind' });
  if (s.scope !== 'Namespaced' && s.scope !== 'Cluster') {
    errors.push({ type: 'NotSupported', field: 'spec.scope', value: s.scope ?? '', detail: 'supported values: "Cluster", "Namespaced"' });
  }
  if (crd.metadata?.name !== `${plural}.${s.group ?? ''}`) {
    errors.push({
      type: 'Invalid',
      field: 'metadata.name',
      value: crd.metadata?.name ?? '',
      detail: 'must be spec.names.plural+"."+spec.group',
    });
  }
  const versions = s.versions ?? [];
  if (versions.length === 0)
    errors.push({
      type: 'Invalid',
      field: 'spec.versions',
      value: versions,
      detail: 'must have exactly one version marked as storage version',
    });
  else if (versions.filter((v) => v.storage).length !== 1) {
    errors.push({
      type: 'Invalid',
      field: 'spec.versions',
      value: versions.map((v) => v.name),
      detail: 'must have exactly one version marked as storage version',
    });
  }
  return errors;
};

/** The status the apiextensions controllers set at once: names accepted, established. */
export const crdStatus = (crd: KubeObject, at: string): Record<string, unknown> => {
  const s = spec(crd);
  const kind = s.names?.kind ?? '';
  return {
    acceptedNames: { ...s.names, singular: s.names?.singular || kind.toLowerCase(), listKind: s.names?.listKind || `${kind}List` },
    conditions: [
      { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found', lastTransitionTime: at },
      {
        type: 'Established',
        status: 'True',
        reason: 'InitialNamesAccepted',
        message: 'the initial names have been accepted',
        lastTransitionTime: at,
      },
    ],
    storedVersions: (s.versions ?? []).filter((v) => v.storage).map((v) => v.name),
  };
};

/** One ResourceType per served version, with the status and scale subresources each version declares. */
export const crdResourceTypes = (crd: KubeObject): ResourceType[] => {
  const s = spec(crd);
  const names = s.names ?? {};
  const kind = names.kind ?? '';
  return (s.versions ?? [])
    .filter((v) => v.served !== false)
    .map((v) => {
      const subresources: SubresourceDef[] = [];
      if (v.subresources?.status) subresources.push({ name: 'status', kind, verbs: ['get', 'patch', 'update'] });
      if (v.subresources?.scale)
        subresources.push({ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] });
      return {
        group: s.group ?? '',
        version: v.name,
        plural: names.plural ?? '',
        singular: names.singular || kind.toLowerCase(),
        kind,
        listKind: names.listKind || `${kind}List`,
        namespaced: s.scope !== 'Cluster',
        verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
        ...(names.shortNames ? { shortNames: names.shortNames } : {}),
        ...(names.categories ? { categories: names.categories } : {}),
        subresources,
        generation: true,
        returnDeletedObject: false,
        allowUnconditionalUpdate: false,
        strategicMerge: false,
        fieldLabels: [],
        crd: {
          name: crd.metadata?.name ?? '',
          ...(v.schema?.openAPIV3Schema ? { schema: v.schema.openAPIV3Schema } : {}),
          ...(v.additionalPrinterColumns ? { printerColumns: v.additionalPrinterColumns } : {}),
        },
      };
    });
};

const typeOf = (v: unknown): string => {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v === 'object' ? 'object' : typeof v;
};

const typeMatches = (schema: Schema, v: unknown): boolean => {
  if (!schema.type || schema['x-kubernetes-int-or-string']) return true;
  const t = typeOf(v);
  return t === schema.type || (schema.type === 'number' && t === 'integer');
};

/**
 * Prunes unknown fields in place (unless x-kubernetes-preserve-unknown-fields) and returns type, enum and
 * required violations; `pruned` collects the dropped paths (the server warns about them).
 */
export const pruneAndValidate = (schema: Schema, value: unknown, path: string, errors: FieldError[], pruned: string[]): void => {
  if (value === undefined) return;
  if (value === null) return;
  if (!typeMatches(schema, value)) {
    errors.push({
      type: 'Invalid',
      field: path,
      value: typeOf(value),
      detail: `${path} in body must be of type ${schema.type}: "${typeOf(value)}"`,
    });
    return;
  }
  if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    errors.push({
      type: 'NotSupported',
      field: path,
      value,
      detail: `supported values: ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`,
    });
  }
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, i) => schema.items && pruneAndValidate(schema.items, item, `${path}[${i}]`, errors, pruned));
    return;
  }
  if (!isPlainObject(value)) return;
  for (const r of schema.required ?? []) if (value[r] === undefined) errors.push({ type: 'Required', field: `${path}.${r}` });
  const props = schema.properties;
  const additional = schema.additionalProperties;
  for (const [k, v] of Object.entries(value)) {
    const sub = props?.[k] ?? (isPlainObject(additional) ? (additional as Schema) : undefined);
    if (sub) pruneAndValidate(sub, v, `${path}.${k}`, errors, pruned);
    else if (
      !schema['x-kubernetes-preserve-unknown-fields'] &&
      additional !== true &&
      (props || isPlainObject(additional) || schema.type === 'object')
    ) {
      if (schema['x-kubernetes-embedded-resource'] && (k === 'apiVersion' || k === 'kind' || k === 'metadata')) continue;
      delete value[k];
      pruned.push(`${path}.${k}`);
    }
  }
};

/** Applies a CR's schema to everything but apiVersion, kind and metadata. */
export const applySchema = (rt: ResourceType, obj: KubeObject): { errors: FieldError[]; pruned: string[] } => {
  const errors: FieldError[] = [];
  const pruned: string[] = [];
  const schema = rt.crd?.schema as Schema | undefined;
  if (!schema) return { errors, pruned };
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'apiVersion' || k === 'kind' || k === 'metadata') continue;
    const sub = schema.properties?.[k];
    if (sub) pruneAndValidate(sub, v, k, errors, pruned);
    else if (!schema['x-kubernetes-preserve-unknown-fields']) {
      delete obj[k];
      pruned.push(k);
    }
  }
  for (const r of schema.required ?? []) if (obj[r] === undefined) errors.push({ type: 'Required', field: r });
  return { errors, pruned };
};
