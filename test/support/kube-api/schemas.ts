// The schemas of every kind the server stores, as OpenAPI v3 components: built-in kinds generated from the
// models of @kubernetes/client-node (generated from the Kubernetes OpenAPI itself), custom resources from their
// CRD's openAPIV3Schema. The same schemas validate writes (unknown fields), drive server-side apply and are served
// as /openapi/v2 and /openapi/v3.
import * as models from '@kubernetes/client-node';
import { mergeKeyFor, SET_LISTS } from './patch.js';
import type { ResourceType } from './types.js';
import { clone, isPlainObject } from './types.js';

/** An OpenAPI v3 schema object, as far as this server reads and writes them. */
export interface Schema {
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  $ref?: string;
  allOf?: Schema[];
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
  [extension: `x-${string}`]: unknown;
}

export const REF_PREFIX = '#/components/schemas/';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
export const OBJECT_META = `${META}.ObjectMeta`;
const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';

interface Attribute {
  baseName: string;
  type: string;
  format: string;
}
interface Model {
  getAttributeTypeMap(): Attribute[];
}

const modelNamed = (name: string): Model | undefined => {
  const m = (models as unknown as Record<string, unknown>)[name];
  return typeof m === 'function' && typeof (m as unknown as Partial<Model>).getAttributeTypeMap === 'function'
    ? (m as unknown as Model)
    : undefined;
};

const pascal = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
/** `apps` → apps, `rbac.authorization.k8s.io` → rbac, the core group → core: the Go package of the group. */
const groupPackage = (group: string): string => (group === '' ? 'core' : (group.split('.')[0] ?? group));
const definitionPrefix = (group: string, version: string): string =>
  group === 'apiextensions.k8s.io'
    ? `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.${version}`
    : `io.k8s.api.${groupPackage(group)}.${version}`;
/** V1DeploymentSpec → DeploymentSpec, CoreV1EndpointPort → EndpointPort. */
const shortName = (className: string): string => className.replace(/^(?:[A-Z][a-z]+)*?V\d+(?:alpha\d+|beta\d+)?(?=[A-Z])/, '');

/** The models of apimachinery's meta/v1, whatever group refers to them. */
const META_MODELS = new Set([
  'V1ObjectMeta',
  'V1ListMeta',
  'V1ManagedFieldsEntry',
  'V1OwnerReference',
  'V1LabelSelector',
  'V1LabelSelectorRequirement',
  'V1Status',
  'V1StatusDetails',
  'V1StatusCause',
  'V1DeleteOptions',
  'V1Preconditions',
  'V1Condition',
]);

/** The model class of a kind: the group-qualified one where client-node has two (CoreV1Event, EventsV1Event). */
const modelClassOf = (rt: Pick<ResourceType, 'group' | 'version' | 'kind'>): string | undefined =>
  [`${pascal(groupPackage(rt.group))}${pascal(rt.version)}${rt.kind}`, `${pascal(rt.version)}${rt.kind}`].find((n) => modelNamed(n));

/** The built-in schemas, generated once from the models the registry's kinds reach. */
class BuiltinSchemas {
  readonly schemas = new Map<string, Schema>();
  private readonly names = new Map<string, string>();

  constructor(types: ResourceType[]) {
    this.schemas.set(INT_OR_STRING, { type: 'string', format: 'int-or-string', 'x-kubernetes-int-or-string': true });
    for (const cls of ['V1ListMeta', 'V1Status']) this.define(cls, META);
    this.schemas.set(`${META}.Patch`, {
      type: 'object',
      description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.',
    });
    for (const rt of types) {
      const cls = modelClassOf(rt);
      if (!cls) continue;
      const name = this.define(cls, definitionPrefix(rt.group, rt.version));
      const s = this.schemas.get(name);
      if (s) s['x-kubernetes-group-version-kind'] = [{ group: rt.group, kind: rt.kind, version: rt.version }];
    }
  }

  /** The definition name of a model, defining it (and what it refers to) on first use. */
  define(cls: string, prefix: string): string {
    const known = this.names.get(cls);
    if (known) return known;
    const version = /V(\d+(?:alpha\d+|beta\d+)?)(?=[A-Z])/.exec(cls)?.[1];
    const base = META_MODELS.has(cls) ? META : version ? prefix.replace(/\.[^.]+$/, `.v${version}`) : prefix;
    let name = `${base}.${shortName(cls)}`;
    if ([...this.names.values()].includes(name)) name = `${base}.${cls}`;
    this.names.set(cls, name);
    const schema: Schema = { type: 'object', properties: {} };
    this.schemas.set(name, schema);
    const model = modelNamed(cls);
    for (const a of model?.getAttributeTypeMap() ?? []) {
      const prop = this.typeSchema(a.type, a.format, prefix);
      if (prop.type === 'array' && prop.items) {
        const itemModel = /^Array<(\w+)>$/.exec(a.type)?.[1];
        const itemFields = itemModel ? (modelNamed(itemModel)?.getAttributeTypeMap() ?? []).map((x) => x.baseName) : [];
        const key = mergeKeyFor(
          a.baseName,
          itemFields.map((f) => ({ [f]: true })),
        );
        if (key && itemFields.includes(key)) {
          Object.assign(prop, {
            'x-kubernetes-list-map-keys': [key],
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-patch-merge-key': key,
            'x-kubernetes-patch-strategy': 'merge',
          });
        } else if (SET_LISTS.has(a.baseName) && prop.items.type === 'string') {
          Object.assign(prop, { 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge' });
        }
      }
      (schema.properties ??= {})[a.baseName] = prop;
    }
    return name;
  }

  private typeSchema(type: string, format: string, prefix: string): Schema {
    const array = /^Array<(.+)>$/.exec(type);
    if (array) return { type: 'array', items: this.typeSchema(array[1] ?? '', format, prefix) };
    const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
    if (map) return { type: 'object', additionalProperties: this.typeSchema(map[1] ?? '', format, prefix) };
    switch (type) {
      case 'string':
        return format ? { type: 'string', format } : { type: 'string' };
      case 'number':
        return format === 'double' ? { type: 'number', format } : { type: 'integer', ...(format ? { format } : {}) };
      case 'boolean':
        return { type: 'boolean' };
      case 'Date':
        return { type: 'string', format: 'date-time' };
      case 'IntOrString':
        return { $ref: `${REF_PREFIX}${INT_OR_STRING}` };
      case 'any':
        return { 'x-kubernetes-preserve-unknown-fields': true };
      default:
        return modelNamed(type) ? { $ref: `${REF_PREFIX}${this.define(type, prefix)}` } : { 'x-kubernetes-preserve-unknown-fields': true };
    }
  }
}

/** `platform.navin.ai` → `ai.navin.platform`: how apiextensions names a custom resource's definition. */
const reversedGroup = (group: string): string => group.split('.').reverse().join('.');

/** A CRD version's openAPIV3Schema with what the apiextensions server adds: apiVersion, kind, metadata, the GVK. */
const customSchema = (rt: ResourceType): Schema => {
  const raw = isPlainObject(rt.crd?.schema)
    ? (clone(rt.crd?.schema) as Schema)
    : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  return {
    ...raw,
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { $ref: `${REF_PREFIX}${OBJECT_META}` },
      ...raw.properties,
    },
    'x-kubernetes-group-version-kind': [{ group: rt.group, kind: rt.kind, version: rt.version }],
  };
};

export const customDefinitionName = (rt: ResourceType): string => `${reversedGroup(rt.group)}.${rt.version}.${rt.kind}`;

let builtins: BuiltinSchemas | undefined;

/** Every schema the registry's kinds use, by definition name, and the root schema name of each kind. */
export class SchemaCatalog {
  private readonly builtin: BuiltinSchemas;

  constructor(builtinTypes: ResourceType[]) {
    this.builtin = builtins ??= new BuiltinSchemas(builtinTypes);
  }

  /** The definition name of the kind's schema, undefined for a built-in kind client-node has no model of. */
  rootName(rt: ResourceType): string | undefined {
    if (rt.crd) return customDefinitionName(rt);
    const cls = modelClassOf(rt);
    return cls ? this.builtin.define(cls, definitionPrefix(rt.group, rt.version)) : undefined;
  }

  /** The named schema: a built-in definition or a custom resource's root. */
  get(name: string, types: ResourceType[]): Schema | undefined {
    const b = this.builtin.schemas.get(name);
    if (b) return b;
    const rt = types.find((t) => t.crd && customDefinitionName(t) === name);
    return rt && customSchema(rt);
  }

  /** The kinds' schemas with every definition they refer to (transitively), for one OpenAPI document. */
  closure(roots: ResourceType[], types: ResourceType[]): Map<string, Schema> {
    return this.closureOfNames(
      roots.map((rt) => this.rootName(rt)).filter((n): n is string => !!n),
      types,
    );
  }

  closureOfNames(names: string[], types: ResourceType[]): Map<string, Schema> {
    const out = new Map<string, Schema>();
    const visit = (name: string): void => {
      if (out.has(name)) return;
      const s = this.get(name, types);
      if (!s) return;
      out.set(name, s);
      const walk = (x: unknown): void => {
        if (Array.isArray(x)) x.forEach(walk);
        else if (isPlainObject(x)) {
          if (typeof x.$ref === 'string' && x.$ref.startsWith(REF_PREFIX)) visit(x.$ref.slice(REF_PREFIX.length));
          Object.values(x).forEach(walk);
        }
      };
      walk(s);
    };
    names.forEach(visit);
    return out;
  }

  /** A schema with its `$ref` (or single `allOf` reference) followed. */
  resolve(s: Schema | undefined, types: ResourceType[]): Schema | undefined {
    let cur = s;
    for (let i = 0; cur && i < 8; i++) {
      const ref = cur.$ref ?? (cur.allOf?.length === 1 ? cur.allOf[0]?.$ref : undefined);
      if (!ref) return cur;
      const extra = { ...cur };
      delete extra.$ref;
      delete extra.allOf;
      const target = this.get(ref.slice(REF_PREFIX.length), types);
      cur = target && { ...target, ...extra };
    }
    return cur;
  }

  /** The root schema of a kind, resolved. */
  kindSchema(rt: ResourceType, types: ResourceType[]): Schema | undefined {
    const name = this.rootName(rt);
    return name ? this.get(name, types) : undefined;
  }
}
