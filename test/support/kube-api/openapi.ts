// /openapi/v3 (discovery and one document per group-version) and /openapi/v2 (JSON, or the gnostic protobuf
// kubectl asks for), generated from the schemas the server validates with. kubectl reads them for field
// validation support, strategic merge patch keys and `explain`.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { stringify as toYaml } from 'yaml';
import type { Engine } from './engine.js';
import type { Schema } from './schemas.js';
import { OBJECT_META, REF_PREFIX } from './schemas.js';
import type { ResourceType } from './types.js';
import { canonicalJson, hasSubresource, isPlainObject } from './types.js';

/** What clients put in Accept for the v2 protobuf (the `@` form is the older spelling), and the Content-Type answered. */
export const V2_PROTOBUF_ACCEPT = [
  'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
  'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
];
export const V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

type Json = Record<string, unknown>;

const pascal = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
/** `rbac.authorization.k8s.io` → RbacAuthorization, the core group → Core: how operation ids name a group. */
const groupIdent = (group: string): string =>
  group === ''
    ? 'Core'
    : group
        .replace(/\.k8s\.io$/, '')
        .split(/[.-]/)
        .map(pascal)
        .join('');
const gvPath = (group: string, version: string): string => (group ? `apis/${group}/${version}` : `api/${version}`);
const gvk = (rt: ResourceType, kind = rt.kind): Json => ({ group: rt.group, kind, version: rt.version });
const ref = (name: string): Json => ({ $ref: `${REF_PREFIX}${name}` });

const STRING = { type: 'string', uniqueItems: true };
const QUERY: Record<string, Json> = {
  dryRun: {
    name: 'dryRun',
    in: 'query',
    description: 'When present, indicates that modifications should not be persisted.',
    schema: STRING,
  },
  fieldManager: {
    name: 'fieldManager',
    in: 'query',
    description: 'fieldManager is a name associated with the actor or entity that is making these changes.',
    schema: STRING,
  },
  fieldValidation: {
    name: 'fieldValidation',
    in: 'query',
    description:
      'fieldValidation instructs the server on how to handle objects in the request containing unknown or duplicate fields. Valid values are: Ignore, Warn (the default) and Strict.',
    schema: STRING,
  },
  force: {
    name: 'force',
    in: 'query',
    description: 'Force is going to "force" Apply requests. It must be unset for non-apply patch requests.',
    schema: { type: 'boolean', uniqueItems: true },
  },
  pretty: { name: 'pretty', in: 'query', description: "If 'true', then the output is pretty printed.", schema: STRING },
  labelSelector: {
    name: 'labelSelector',
    in: 'query',
    description: 'A selector to restrict the list of returned objects by their labels.',
    schema: STRING,
  },
  fieldSelector: {
    name: 'fieldSelector',
    in: 'query',
    description: 'A selector to restrict the list of returned objects by their fields.',
    schema: STRING,
  },
  resourceVersion: {
    name: 'resourceVersion',
    in: 'query',
    description: 'resourceVersion sets a constraint on what resource versions a request may be served from.',
    schema: STRING,
  },
  watch: {
    name: 'watch',
    in: 'query',
    description: 'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications.',
    schema: { type: 'boolean', uniqueItems: true },
  },
  limit: {
    name: 'limit',
    in: 'query',
    description: 'limit is a maximum number of responses to return for a list call.',
    schema: { type: 'integer', uniqueItems: true },
  },
  continue: {
    name: 'continue',
    in: 'query',
    description: 'The continue option should be set when retrieving more results from the server.',
    schema: STRING,
  },
};
const pathParam = (name: string): Json => ({ name, in: 'path', description: `${name} of the resource`, required: true, schema: STRING });

const PATCH_TYPES = ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json'];
const SMP = 'application/strategic-merge-patch+json';

/** The list kind's schema, for list responses. */
const listSchema = (rt: ResourceType, item: string): Schema => ({
  type: 'object',
  required: ['items'],
  properties: {
    apiVersion: { type: 'string' },
    items: { type: 'array', items: ref(item) as Schema },
    kind: { type: 'string' },
    metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta') as Schema,
  },
  'x-kubernetes-group-version-kind': [{ group: rt.group, kind: rt.listKind, version: rt.version }],
});

interface Operation {
  method: 'get' | 'put' | 'post' | 'patch' | 'delete';
  action: string;
  id: string;
  description: string;
  query: string[];
  body?: 'object' | 'patch';
  response: string;
  created?: boolean;
}

interface PathSpec {
  path: string;
  params: string[];
  ops: Operation[];
  rt: ResourceType;
}

/** The paths a resource type serves, with the operations its verbs allow. */
const pathsOf = (rt: ResourceType, root: string): PathSpec[] => {
  const base = `/${gvPath(rt.group, rt.version)}`;
  const g = `${groupIdent(rt.group)}${pascal(rt.version)}`;
  const scoped = rt.namespaced ? 'Namespaced' : '';
  const collection = rt.namespaced ? `${base}/namespaces/{namespace}/${rt.plural}` : `${base}/${rt.plural}`;
  const nsParams = rt.namespaced ? ['namespace'] : [];
  const list = `${root}List`;
  const has = (v: string): boolean => rt.verbs.includes(v);
  const write = ['dryRun', 'fieldManager', 'fieldValidation'];
  const specs: PathSpec[] = [];
  const collOps: Operation[] = [];
  if (has('list'))
    collOps.push({
      method: 'get',
      action: 'list',
      id: `list${g}${scoped}${rt.kind}`,
      description: `list or watch objects of kind ${rt.kind}`,
      query: ['labelSelector', 'fieldSelector', 'limit', 'continue', 'resourceVersion', 'watch'],
      response: list,
    });
  if (has('create'))
    collOps.push({
      method: 'post',
      action: 'post',
      id: `create${g}${scoped}${rt.kind}`,
      description: `create a ${rt.kind}`,
      query: write,
      body: 'object',
      response: root,
      created: true,
    });
  if (has('deletecollection'))
    collOps.push({
      method: 'delete',
      action: 'deletecollection',
      id: `deletecollection${g}${scoped}${rt.kind}`,
      description: `delete collection of ${rt.kind}`,
      query: ['dryRun', 'labelSelector', 'fieldSelector'],
      response: 'io.k8s.apimachinery.pkg.apis.meta.v1.Status',
    });
  if (collOps.length) specs.push({ path: collection, params: nsParams, ops: collOps, rt });
  if (rt.namespaced && has('list')) {
    specs.push({
      path: `${base}/${rt.plural}`,
      params: [],
      ops: [
        {
          method: 'get',
          action: 'list',
          id: `list${g}${rt.kind}ForAllNamespaces`,
          description: `list or watch objects of kind ${rt.kind}`,
          query: ['labelSelector', 'fieldSelector', 'limit', 'continue', 'resourceVersion', 'watch'],
          response: list,
        },
      ],
      rt,
    });
  }
  if (rt.virtual) return specs;
  const itemOps = (suffix: string, what: string): Operation[] => [
    {
      method: 'get',
      action: 'get',
      id: `read${g}${scoped}${rt.kind}${suffix}`,
      description: `read ${what} of the specified ${rt.kind}`,
      query: [],
      response: root,
    },
    {
      method: 'put',
      action: 'put',
      id: `replace${g}${scoped}${rt.kind}${suffix}`,
      description: `replace ${what} of the specified ${rt.kind}`,
      query: write,
      body: 'object',
      response: root,
      created: true,
    },
    {
      method: 'patch',
      action: 'patch',
      id: `patch${g}${scoped}${rt.kind}${suffix}`,
      description: `partially update ${what} of the specified ${rt.kind}`,
      query: [...write, 'force'],
      body: 'patch',
      response: root,
      created: true,
    },
  ];
  const item = itemOps('', 'the object');
  if (has('delete'))
    item.push({
      method: 'delete',
      action: 'delete',
      id: `delete${g}${scoped}${rt.kind}`,
      description: `delete a ${rt.kind}`,
      query: ['dryRun'],
      response: 'io.k8s.apimachinery.pkg.apis.meta.v1.Status',
    });
  specs.push({
    path: `${collection}/{name}`,
    params: ['name', ...nsParams],
    ops: item.filter((o) => o.method === 'delete' || has(o.action === 'put' ? 'update' : o.action)),
    rt,
  });
  if (hasSubresource(rt, 'status'))
    specs.push({ path: `${collection}/{name}/status`, params: ['name', ...nsParams], ops: itemOps('Status', 'status'), rt });
  return specs;
};

const v3Operation = (o: Operation, rt: ResourceType, tag: string): Json => {
  const content = (name: string): Json => ({ 'application/json': { schema: ref(name) }, 'application/yaml': { schema: ref(name) } });
  const patchTypes = rt.strategicMerge ? [...PATCH_TYPES, SMP] : PATCH_TYPES;
  return {
    tags: [tag],
    description: o.description,
    operationId: o.id,
    parameters: o.query.map((q) => QUERY[q]),
    ...(o.body === 'object' ? { requestBody: { content: { '*/*': { schema: ref(o.response) } }, required: true } } : {}),
    ...(o.body === 'patch'
      ? {
          requestBody: {
            content: Object.fromEntries(patchTypes.map((t) => [t, { schema: ref('io.k8s.apimachinery.pkg.apis.meta.v1.Patch') }])),
            required: true,
          },
        }
      : {}),
    responses: {
      '200': { description: 'OK', content: content(o.response) },
      ...(o.created ? { '201': { description: 'Created', content: content(o.response) } } : {}),
      '401': { description: 'Unauthorized' },
    },
    'x-kubernetes-action': o.action,
    'x-kubernetes-group-version-kind': gvk(rt),
  };
};

/** Everything a document needs from the registry, and a fingerprint that changes when a CRD changes. */
const state = (engine: Engine): { types: ResourceType[]; fingerprint: string } => {
  const types = engine.registry.all();
  const fingerprint = canonicalJson(
    types.filter((t) => t.crd).map((t) => [t.group, t.version, t.plural, t.kind, t.namespaced, t.verbs, t.subresources, t.crd]),
  );
  return { types, fingerprint };
};

const STATUS_DEFS = [
  'io.k8s.apimachinery.pkg.apis.meta.v1.Status',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta',
  OBJECT_META,
];

/** The components a set of kinds needs: their schemas, their list schemas and what those refer to. */
const componentsFor = (engine: Engine, kinds: ResourceType[], types: ResourceType[]): Map<string, Schema> => {
  const out = engine.schemas.closure(kinds, types);
  for (const name of STATUS_DEFS) for (const [k, v] of engine.schemas.closureOfNames([name], types)) out.set(k, v);
  for (const rt of kinds) {
    const root = engine.schemas.rootName(rt);
    if (root && !rt.virtual) out.set(`${root}List`, listSchema(rt, root));
  }
  return new Map([...out.entries()].sort(([a], [b]) => a.localeCompare(b)));
};

export class OpenApi {
  private cache: { fingerprint: string; v3: Map<string, { doc: Json; hash: string }>; v2?: Json; v2pb?: Buffer } = {
    fingerprint: '',
    v3: new Map(),
  };
  private proto?: protobuf.Type;

  constructor(
    private readonly engine: Engine,
    private readonly gitVersion: string,
  ) {}

  private fresh(): { types: ResourceType[] } {
    const s = state(this.engine);
    if (s.fingerprint !== this.cache.fingerprint) this.cache = { fingerprint: s.fingerprint, v3: new Map() };
    return s;
  }

  private groupVersions(types: ResourceType[]): { group: string; version: string }[] {
    const seen = new Map<string, { group: string; version: string }>();
    for (const t of types) seen.set(gvPath(t.group, t.version), { group: t.group, version: t.version });
    return [...seen.values()];
  }

  /** One group-version's OpenAPI v3 document and its hash (the `?hash=` of the discovery document). */
  v3(path: string): { doc: Json; hash: string } | undefined {
    const { types } = this.fresh();
    const cached = this.cache.v3.get(path);
    if (cached) return cached;
    const gv = this.groupVersions(types).find((x) => gvPath(x.group, x.version) === path);
    if (!gv) return undefined;
    const kinds = types.filter((t) => t.group === gv.group && t.version === gv.version);
    const tag = `${groupIdent(gv.group).replace(/^./, (c) => c.toLowerCase())}_${gv.version}`;
    const paths: Json = {};
    for (const rt of kinds) {
      const root = this.engine.schemas.rootName(rt);
      if (!root) continue;
      for (const spec of pathsOf(rt, root)) {
        const item: Json = { ...((paths[spec.path] as Json | undefined) ?? {}) };
        for (const o of spec.ops) item[o.method] = v3Operation(o, rt, tag);
        item.parameters = [...spec.params.map(pathParam), QUERY.pretty];
        paths[spec.path] = item;
      }
    }
    const doc: Json = {
      openapi: '3.0.0',
      info: { title: 'Kubernetes', version: this.gitVersion },
      paths,
      components: {
        schemas: Object.fromEntries(componentsFor(this.engine, kinds, types)),
        securitySchemes: {
          BearerToken: { type: 'apiKey', description: 'Bearer Token authentication', name: 'authorization', in: 'header' },
        },
      },
    };
    const entry = { doc, hash: createHash('sha512').update(JSON.stringify(doc)).digest('hex').toUpperCase() };
    this.cache.v3.set(path, entry);
    return entry;
  }

  /** GET /openapi/v3: every group-version document with its content hash. */
  v3Discovery(): Json {
    const { types } = this.fresh();
    const paths: Json = {};
    for (const gv of this.groupVersions(types)) {
      const path = gvPath(gv.group, gv.version);
      const d = this.v3(path);
      if (d) paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${d.hash}` };
    }
    return { paths };
  }

  /** GET /openapi/v2 as JSON: one Swagger 2.0 document for every kind. */
  v2(): Json {
    const { types } = this.fresh();
    if (this.cache.v2) return this.cache.v2;
    const toV2 = (x: unknown): unknown => {
      if (Array.isArray(x)) return x.map(toV2);
      if (!isPlainObject(x)) return x;
      return Object.fromEntries(
        Object.entries(x).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? v.replace(REF_PREFIX, '#/definitions/') : toV2(v)]),
      );
    };
    const paths: Json = {};
    const kinds = types.filter((t) => this.engine.schemas.rootName(t));
    for (const rt of kinds) {
      const root = this.engine.schemas.rootName(rt) ?? '';
      const tag = `${groupIdent(rt.group).replace(/^./, (c) => c.toLowerCase())}_${rt.version}`;
      for (const spec of pathsOf(rt, root)) {
        const item: Json = { ...((paths[spec.path] as Json | undefined) ?? {}) };
        for (const o of spec.ops) {
          const patchTypes = rt.strategicMerge ? [...PATCH_TYPES, SMP] : PATCH_TYPES;
          item[o.method] = {
            description: o.description,
            consumes: o.body === 'patch' ? patchTypes : ['*/*'],
            produces: ['application/json', 'application/yaml'],
            schemes: ['https'],
            tags: [tag],
            operationId: o.id,
            parameters: [
              ...(o.body === 'object'
                ? [{ name: 'body', in: 'body', required: true, schema: { $ref: `#/definitions/${o.response}` } }]
                : []),
              ...(o.body === 'patch'
                ? [
                    {
                      name: 'body',
                      in: 'body',
                      required: true,
                      schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' },
                    },
                  ]
                : []),
              ...o.query.map((q) => {
                const p = QUERY[q] as { name: string; in: string; description: string; schema: Json };
                return { uniqueItems: true, type: p.schema.type, name: p.name, in: p.in, description: p.description };
              }),
            ],
            responses: {
              '200': { description: 'OK', schema: { $ref: `#/definitions/${o.response}` } },
              ...(o.created ? { '201': { description: 'Created', schema: { $ref: `#/definitions/${o.response}` } } } : {}),
              '401': { description: 'Unauthorized' },
            },
            'x-kubernetes-action': o.action,
            'x-kubernetes-group-version-kind': gvk(rt),
          };
        }
        item.parameters = [
          ...spec.params.map((n) => ({
            uniqueItems: true,
            type: 'string',
            name: n,
            in: 'path',
            required: true,
            description: `${n} of the resource`,
          })),
          { uniqueItems: true, type: 'string', name: 'pretty', in: 'query', description: QUERY.pretty?.description },
        ];
        paths[spec.path] = item;
      }
    }
    this.cache.v2 = {
      swagger: '2.0',
      info: { title: 'Kubernetes', version: this.gitVersion },
      paths,
      definitions: toV2(Object.fromEntries(componentsFor(this.engine, kinds, types))),
      securityDefinitions: {
        BearerToken: { description: 'Bearer Token authentication', type: 'apiKey', name: 'authorization', in: 'header' },
      },
      security: [{ BearerToken: [] }],
    };
    return this.cache.v2;
  }

  /** The v2 document as the gnostic openapi.v2.Document protobuf kubectl decodes. */
  v2Protobuf(): Buffer {
    const doc = this.v2();
    if (this.cache.v2pb) return this.cache.v2pb;
    // keepCase: the message objects below use the .proto's own field names.
    this.proto ??= new protobuf.Root()
      .loadSync(fileURLToPath(new URL('./openapi-v2.proto', import.meta.url)), { keepCase: true })
      .lookupType('openapi.v2.Document');
    const message = gnosticDocument(doc);
    const err = this.proto.verify(message);
    if (err) throw new Error(`openapi v2 protobuf: ${err}`);
    this.cache.v2pb = Buffer.from(this.proto.encode(this.proto.fromObject(message)).finish());
    return this.cache.v2pb;
  }
}

// --- JSON Swagger 2.0 → the gnostic message shapes (field names as in the .proto). ---

const any = (v: unknown): Json => ({ yaml: toYaml(v) });
const extensions = (o: Json): Json[] =>
  Object.entries(o)
    .filter(([k]) => k.startsWith('x-'))
    .map(([name, value]) => ({ name, value: any(value) }));

const gnosticSchema = (s: Json): Json => {
  const out: Json = {};
  if (typeof s.$ref === 'string') out._ref = s.$ref;
  if (typeof s.format === 'string') out.format = s.format;
  if (typeof s.description === 'string') out.description = s.description;
  if (Array.isArray(s.required)) out.required = s.required;
  if (Array.isArray(s.enum)) out.enum = s.enum.map(any);
  if (typeof s.type === 'string') out.type = { value: [s.type] };
  if (isPlainObject(s.items)) out.items = { schema: [gnosticSchema(s.items)] };
  if (Array.isArray(s.allOf)) out.all_of = s.allOf.filter(isPlainObject).map(gnosticSchema);
  if (isPlainObject(s.properties)) {
    out.properties = {
      additional_properties: Object.entries(s.properties).map(([name, v]) => ({ name, value: gnosticSchema(v as Json) })),
    };
  }
  if (typeof s.additionalProperties === 'boolean') out.additional_properties = { boolean: s.additionalProperties };
  else if (isPlainObject(s.additionalProperties)) out.additional_properties = { schema: gnosticSchema(s.additionalProperties) };
  const ext = extensions(s);
  if (ext.length) out.vendor_extension = ext;
  return out;
};

const gnosticParameter = (p: Json): Json => {
  if (p.in === 'body') {
    return { parameter: { body_parameter: { name: p.name, in: 'body', required: !!p.required, schema: gnosticSchema(p.schema as Json) } } };
  }
  const sub = {
    name: p.name,
    in: p.in,
    description: p.description ?? '',
    type: p.type,
    unique_items: !!p.uniqueItems,
    ...(p.required ? { required: true } : {}),
  };
  return { parameter: { non_body_parameter: p.in === 'path' ? { path_parameter_sub_schema: sub } : { query_parameter_sub_schema: sub } } };
};

const gnosticOperation = (o: Json): Json => ({
  tags: o.tags,
  description: o.description,
  operation_id: o.operationId,
  consumes: o.consumes,
  produces: o.produces,
  schemes: o.schemes,
  parameters: (o.parameters as Json[]).map(gnosticParameter),
  responses: {
    response_code: Object.entries(o.responses as Record<string, Json>).map(([name, r]) => ({
      name,
      value: {
        response: { description: r.description, ...(isPlainObject(r.schema) ? { schema: { schema: gnosticSchema(r.schema) } } : {}) },
      },
    })),
  },
  vendor_extension: extensions(o),
});

const gnosticDocument = (doc: Json): Json => ({
  swagger: doc.swagger,
  info: doc.info,
  paths: {
    path: Object.entries(doc.paths as Record<string, Json>).map(([name, item]) => ({
      name,
      value: {
        ...Object.fromEntries(
          ['get', 'put', 'post', 'delete', 'patch']
            .filter((m) => isPlainObject(item[m]))
            .map((m) => [m, gnosticOperation(item[m] as Json)]),
        ),
        parameters: (item.parameters as Json[]).map(gnosticParameter),
      },
    })),
  },
  definitions: {
    additional_properties: Object.entries(doc.definitions as Record<string, Json>).map(([name, s]) => ({ name, value: gnosticSchema(s) })),
  },
  security_definitions: {
    additional_properties: [
      {
        name: 'BearerToken',
        value: { api_key_security: { type: 'apiKey', name: 'authorization', in: 'header', description: 'Bearer Token authentication' } },
      },
    ],
  },
  security: [{ additional_properties: [{ name: 'BearerToken', value: { value: [] } }] }],
});
