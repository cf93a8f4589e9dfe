// The API machinery without HTTP: create, update, patch, delete and list with the real server's semantics.
import { randomUUID } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { applySchema, crdResourceTypes } from './crd.js';
import { checkFields } from './field-validation.js';
import { cascadeNamespace, collectGarbage, isTerminating, namespaceDefaults } from './lifecycle.js';
import { FieldManager } from './managed-fields.js';
import { APPLY_PATCH, JSON_PATCH, MERGE_PATCH, STRATEGIC_PATCH, jsonPatch, mergePatch, strategicMerge } from './patch.js';
import { Registry } from './resources.js';
import type { Schema } from './schemas.js';
import { SchemaCatalog } from './schemas.js';
import { fieldSelector, labelSelector } from './selectors.js';
import * as errors from './status.js';
import type { FieldError, GroupResource } from './status.js';
import { ObjectStore } from './store.js';
import { generateName, strategyFor, validateName } from './strategy.js';
import type { KubeObject, ResourceType, StoredObject } from './types.js';
import { canonicalJson, clone, groupVersion, hasSubresource, isPlainObject, nowTimestamp, storageKey } from './types.js';

export interface EngineOptions {
  historyLimit: number;
  /** Create the `default` ServiceAccount and the `kube-root-ca.crt` ConfigMap in every new namespace. */
  namespaceDefaults: boolean;
  /** How long a deleted namespace stays Terminating before its content and itself are removed (0: at once). */
  namespaceFinalizeDelayMs: number;
  caPem: string;
}

export interface WriteOptions {
  dryRun?: boolean;
  /** Keep the given status on create and main-resource update (seeding and the admin store API). */
  keepStatus?: boolean;
  fieldManager?: string;
  /** Who writes, for metadata.managedFields (fieldManager, else the User-Agent's product); unset: managedFields kept as they are. */
  manager?: string;
  /** `fieldValidation`: Strict refuses unknown fields, Warn (the default) drops them with a warning, Ignore drops them silently. */
  fieldValidation?: FieldValidation;
  /** `force` of a server-side apply: take over the fields other managers own. */
  force?: boolean;
  /** The object already carries the managedFields of this write (server-side apply computed them). */
  managedFieldsSet?: boolean;
}

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface WriteResult {
  object: StoredObject;
  warnings: string[];
  /** A server-side apply created the object (201). */
  created?: boolean;
}

export interface ListQuery {
  labelSelector?: string | null;
  fieldSelector?: string | null;
  limit?: number;
  continue?: string | null;
}

export interface ListResult {
  items: StoredObject[];
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface DeleteOptions {
  preconditions?: { uid?: string; resourceVersion?: string };
  propagationPolicy?: string;
}

export const gr = (rt: ResourceType): GroupResource => ({ group: rt.group, resource: rt.plural });

const SERVER_META = ['uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation'] as const;

/** The object's content that generation tracks: everything but metadata (and status, with a status subresource). */
const specOf = (rt: ResourceType, o: KubeObject): string => {
  const { metadata: _m, status, ...rest } = o;
  return canonicalJson(hasSubresource(rt, 'status') ? rest : { ...rest, status });
};

/** The decoding error prefix: `Deployment in version "v1" cannot be handled as a Deployment`. */
const cannotHandle = (rt: ResourceType): string => `${rt.kind} in version "${rt.version}" cannot be handled as a ${rt.kind}`;

const sameContent = (a: KubeObject, b: KubeObject): boolean => {
  const strip = (o: KubeObject): string => canonicalJson({ ...o, metadata: { ...o.metadata, resourceVersion: undefined } });
  return strip(a) === strip(b);
};

export class Engine {
  readonly registry = new Registry();
  readonly store: ObjectStore;
  readonly schemas = new SchemaCatalog(this.registry.all());
  readonly resolveSchema = (s: Schema | undefined): Schema | undefined => this.schemas.resolve(s, this.registry.all());
  private readonly fields = new FieldManager(this.resolveSchema, (rt) => this.schemas.kindSchema(rt, this.registry.all()));

  constructor(readonly options: EngineOptions) {
    this.store = new ObjectStore(options.historyLimit);
  }

  /** The object as served by this group/version: apiVersion and kind set for it. */
  present(rt: ResourceType, o: StoredObject): StoredObject {
    return { ...o, apiVersion: groupVersion(rt.group, rt.version), kind: rt.kind };
  }

  private key(rt: ResourceType, ns: string | undefined): string | undefined {
    return rt.namespaced ? ns : undefined;
  }

  find(rt: ResourceType, ns: string | undefined, name: string): StoredObject | undefined {
    const o = this.store.get(storageKey(rt), this.key(rt, ns), name);
    return o && this.present(rt, o);
  }

  get(rt: ResourceType, ns: string | undefined, name: string): StoredObject {
    const o = this.find(rt, ns, name);
    if (!o) throw errors.notFound(gr(rt), name);
    return o;
  }

  list(rt: ResourceType, ns: string | undefined, q: ListQuery = {}): ListResult {
    const byLabel = labelSelector(q.labelSelector);
    const byField = fieldSelector(q.fieldSelector, rt.fieldLabels);
    let items = this.store.list(storageKey(rt), rt.namespaced ? ns : undefined).filter((o) => byLabel(o) && byField(o));
    let after = '';
    if (q.continue) {
      try {
        after = (JSON.parse(Buffer.from(q.continue, 'base64url').toString()) as { start: string }).start;
      } catch {
        throw errors.badRequest('continue key is not valid: illegal base64 data');
      }
      items = items.filter((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name}` > after);
    }
    const resourceVersion = String(this.store.currentRevision());
    if (q.limit && q.limit > 0 && items.length > q.limit) {
      const page = items.slice(0, q.limit);
      const last = page[page.length - 1];
      const start = `${last?.metadata.namespace ?? ''}/${last?.metadata.name ?? ''}`;
      return {
        items: page.map((o) => this.present(rt, o)),
        resourceVersion,
        continue: Buffer.from(JSON.stringify({ start, rv: resourceVersion })).toString('base64url'),
        remainingItemCount: items.length - q.limit,
      };
    }
    return { items: items.map((o) => this.present(rt, o)), resourceVersion };
  }

  private write(rt: ResourceType, o: StoredObject, opts: WriteOptions): StoredObject {
    return opts.dryRun ? o : this.present(rt, this.store.put(storageKey(rt), o));
  }

  private checkNamespaceForCreate(rt: ResourceType, ns: string, name: string): void {
    if (!rt.namespaced) return;
    const nsObj = this.store.get('/namespaces', undefined, ns);
    if (!nsObj) throw errors.notFound({ group: '', resource: 'namespaces' }, ns);
    if (isTerminating(nsObj)) {
      throw errors.forbidden(gr(rt), name, `unable to create new content in namespace ${ns} because it is being terminated`);
    }
  }

  /** Schema pruning (and a CRD's validation) with the kind's schema, fieldValidation, then the kind's defaults and validation. */
  private admit(rt: ResourceType, o: StoredObject, creating: boolean, opts: WriteOptions): string[] {
    const errs: FieldError[] = [];
    let pruned: string[] = [];
    if (rt.crd) {
      const r = applySchema(rt, o);
      errs.push(...r.errors);
      pruned = r.pruned;
    } else {
      const r = checkFields(this.resolveSchema, this.schemas.kindSchema(rt, this.registry.all()), o);
      if (r.shapeErrors.length) throw errors.badRequest(`${cannotHandle(rt)}: ${r.shapeErrors[0]}`);
      pruned = r.unknown;
    }
    if (pruned.length && opts.fieldValidation === 'Strict') {
      throw errors.badRequest(`${cannotHandle(rt)}: strict decoding error: ${pruned.map((p) => `unknown field "${p}"`).join(', ')}`);
    }
    const s = strategyFor(rt);
    s.defaults?.(o, creating);
    errs.push(...(s.validate?.(o) ?? []));
    if (errs.length) throw errors.invalid({ group: rt.group, kind: rt.kind }, o.metadata.name, errs);
    return opts.fieldValidation === 'Ignore' ? [] : pruned.map((p) => `unknown field "${p}"`);
  }

  /** metadata.managedFields of a write: recorded for a manager, else those of the object as it was. */
  private manage(rt: ResourceType, existing: StoredObject | undefined, next: StoredObject, sub: string, opts: WriteOptions): void {
    if (opts.managedFieldsSet) return;
    if (opts.manager === undefined) {
      if (existing?.metadata.managedFields) next.metadata.managedFields = existing.metadata.managedFields;
      else delete next.metadata.managedFields;
      return;
    }
    const entries = this.fields.update(rt, existing, next, { manager: opts.manager, subresource: sub });
    if (entries.length) next.metadata.managedFields = entries;
    else delete next.metadata.managedFields;
  }

  create(rt: ResourceType, ns: string | undefined, body: unknown, opts: WriteOptions = {}): WriteResult {
    if (!isPlainObject(body)) throw errors.badRequest('the body of the request was not a JSON object');
    const o = clone(body) as KubeObject;
    if (o.kind && o.kind !== rt.kind) {
      throw errors.badRequest(`the kind of the object (${String(o.kind)}) does not match the expected kind (${rt.kind})`);
    }
    o.apiVersion = groupVersion(rt.group, rt.version);
    o.kind = rt.kind;
    const meta = (o.metadata = { ...(isPlainObject(o.metadata) ? o.metadata : {}) });
    if (rt.namespaced) {
      if (meta.namespace && ns && meta.namespace !== ns) {
        throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      meta.namespace = ns || meta.namespace || 'default';
    } else delete meta.namespace;
    if (!meta.name && meta.generateName) meta.name = generateName(meta.generateName);
    const name = meta.name ?? '';
    if (!name) {
      throw errors.invalid({ group: rt.group, kind: rt.kind }, '', [
        { type: 'Required', field: 'metadata.name', detail: 'name or generateName is required' },
      ]);
    }
    const nameErrors = validateName(rt, name);
    if (nameErrors.length) throw errors.invalid({ group: rt.group, kind: rt.kind }, name, nameErrors);
    this.checkNamespaceForCreate(rt, meta.namespace ?? '', name);
    if (this.find(rt, meta.namespace, name)) throw errors.alreadyExists(gr(rt), name);

    for (const f of [...SERVER_META, 'resourceVersion', 'selfLink']) delete meta[f];
    meta.uid = randomUUID();
    meta.creationTimestamp = nowTimestamp();
    if (rt.generation) meta.generation = 1;
    if (hasSubresource(rt, 'status') && !opts.keepStatus) {
      if (rt.crd) delete o.status;
      else o.status = {};
    }
    const stored = o as StoredObject;
    stored.metadata.resourceVersion = '';
    const warnings = this.admit(rt, stored, true, opts);
    this.manage(rt, undefined, stored, '', opts);
    const object = this.write(rt, stored, opts);
    if (!opts.dryRun) this.afterWrite(rt, object, true);
    return { object, warnings };
  }

  /** PUT of the main resource or of its status subresource. `precondition` false: a patch, already checked. */
  update(
    rt: ResourceType,
    ns: string | undefined,
    name: string,
    body: unknown,
    sub = '',
    opts: WriteOptions = {},
    precondition = true,
  ): WriteResult {
    if (!isPlainObject(body)) throw errors.badRequest('the body of the request was not a JSON object');
    const incoming = clone(body) as KubeObject;
    const inMeta = isPlainObject(incoming.metadata) ? incoming.metadata : {};
    if (inMeta.name !== undefined && inMeta.name !== name) {
      throw errors.badRequest(`the name of the object (${String(inMeta.name)}) does not match the name on the URL (${name})`);
    }
    if (rt.namespaced && inMeta.namespace && ns && inMeta.namespace !== ns) {
      throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    const existing = this.get(rt, ns, name);
    const rv = inMeta.resourceVersion;
    if (precondition) {
      if (rv === undefined || rv === '') {
        if (!rt.allowUnconditionalUpdate) {
          throw errors.invalid({ group: rt.group, kind: rt.kind }, name, [
            { type: 'Invalid', field: 'metadata.resourceVersion', rawValue: '0x0', detail: 'must be specified for an update' },
          ]);
        }
      } else if (rv !== existing.metadata.resourceVersion) throw errors.conflict(gr(rt), name);
    }

    let next: StoredObject;
    if (sub === 'status') {
      next = clone(existing);
      if (incoming.status === undefined) delete next.status;
      else next.status = incoming.status;
      if (opts.managedFieldsSet) next.metadata.managedFields = inMeta.managedFields as never;
    } else {
      next = { ...(incoming as StoredObject), apiVersion: existing.apiVersion, kind: rt.kind };
      next.metadata = { ...inMeta, name, resourceVersion: existing.metadata.resourceVersion } as StoredObject['metadata'];
      if (rt.namespaced) next.metadata.namespace = existing.metadata.namespace;
      else delete next.metadata.namespace;
      for (const f of SERVER_META) {
        if (existing.metadata[f] === undefined) delete next.metadata[f];
        else next.metadata[f] = existing.metadata[f] as never;
      }
      if (hasSubresource(rt, 'status') && !opts.keepStatus) {
        if (existing.status === undefined) delete next.status;
        else next.status = existing.status;
      }
    }
    const warnings = sub === 'status' && !rt.crd ? [] : this.admit(rt, next, false, opts);
    this.manage(rt, existing, next, sub, opts);
    if (rt.generation && sub !== 'status' && specOf(rt, next) !== specOf(rt, existing)) {
      next.metadata.generation = (existing.metadata.generation ?? 0) + 1;
    }
    if (sameContent(next, existing)) return { object: existing, warnings };
    const object = this.write(rt, next, opts);
    if (!opts.dryRun) this.afterWrite(rt, object, false);
    return { object, warnings };
  }

  patch(
    rt: ResourceType,
    ns: string | undefined,
    name: string,
    contentType: string,
    raw: string,
    sub = '',
    opts: WriteOptions = {},
  ): WriteResult {
    const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    const accepted = [JSON_PATCH, MERGE_PATCH, APPLY_PATCH, ...(rt.strategicMerge ? [STRATEGIC_PATCH] : [])];
    if (!accepted.includes(type)) throw errors.unsupportedMediaType(accepted);
    let body: unknown;
    try {
      body = type === APPLY_PATCH ? parseYaml(raw) : JSON.parse(raw);
    } catch (e) {
      throw errors.badRequest(`error decoding patch: ${(e as Error).message}`);
    }
    if (type === APPLY_PATCH && !opts.fieldManager) {
      throw errors.invalid({ group: 'meta.k8s.io', kind: 'PatchOptions' }, '', [
        { type: 'Required', field: 'fieldManager', detail: 'is required for apply patch' },
      ]);
    }
    if (opts.force !== undefined && type !== APPLY_PATCH) {
      throw errors.invalid({ group: 'meta.k8s.io', kind: 'PatchOptions' }, '', [
        { type: 'Forbidden', field: 'force', detail: 'may not be specified for non-apply patch' },
      ]);
    }
    const existing = this.find(rt, ns, name);
    if (type === APPLY_PATCH) return this.serverSideApply(rt, ns, name, existing, body, sub, opts);
    if (!existing) throw errors.notFound(gr(rt), name);
    const patched =
      type === JSON_PATCH ? jsonPatch(existing, body) : type === MERGE_PATCH ? mergePatch(existing, body) : strategicMerge(existing, body);
    if (!isPlainObject(patched)) throw errors.unprocessable('the patched object is not a JSON object');
    const meta = (isPlainObject(patched.metadata) ? patched.metadata : (patched.metadata = {})) as Record<string, unknown>;
    if (meta.resourceVersion !== undefined && meta.resourceVersion !== existing.metadata.resourceVersion) {
      throw errors.conflict(gr(rt), name);
    }
    meta.resourceVersion = existing.metadata.resourceVersion;
    meta.name = name;
    return this.update(rt, ns, name, patched, sub, opts, false);
  }

  /** PATCH application/apply-patch+yaml: the field manager merges the configuration and owns what it sets. */
  private serverSideApply(
    rt: ResourceType,
    ns: string | undefined,
    name: string,
    existing: StoredObject | undefined,
    body: unknown,
    sub: string,
    opts: WriteOptions,
  ): WriteResult {
    if (!isPlainObject(body)) throw errors.badRequest('error decoding YAML: the apply configuration is not an object');
    const config = body as KubeObject;
    if (config.apiVersion !== groupVersion(rt.group, rt.version) || config.kind !== rt.kind) {
      throw errors.badRequest(
        `the apply configuration must set apiVersion "${groupVersion(rt.group, rt.version)}" and kind "${rt.kind}" (got "${String(config.apiVersion ?? '')}", "${String(config.kind ?? '')}")`,
      );
    }
    const meta = isPlainObject(config.metadata) ? config.metadata : {};
    if (meta.name !== undefined && meta.name !== name) {
      throw errors.badRequest(`the name of the object (${String(meta.name)}) does not match the name on the URL (${name})`);
    }
    if (!existing && sub) throw errors.notFound(gr(rt), name);
    if (existing && meta.resourceVersion !== undefined && meta.resourceVersion !== existing.metadata.resourceVersion) {
      throw errors.conflict(gr(rt), name);
    }
    config.metadata = { ...meta, name };
    const applied = this.fields.apply(rt, existing, config, { manager: opts.fieldManager ?? '', subresource: sub }, opts.force ?? false);
    const done = { ...opts, managedFieldsSet: true };
    if (!existing) return { ...this.create(rt, ns, applied, done), created: true };
    applied.metadata = { ...applied.metadata, resourceVersion: existing.metadata.resourceVersion };
    return this.update(rt, ns, name, applied, sub, done, false);
  }

  delete(
    rt: ResourceType,
    ns: string | undefined,
    name: string,
    options: DeleteOptions = {},
    opts: WriteOptions = {},
  ): { object: StoredObject; deleted: boolean } {
    const existing = this.get(rt, ns, name);
    const pre = options.preconditions;
    if (pre?.uid && pre.uid !== existing.metadata.uid) {
      throw errors.conflict(
        gr(rt),
        name,
        `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${existing.metadata.uid}`,
      );
    }
    if (pre?.resourceVersion && pre.resourceVersion !== existing.metadata.resourceVersion) {
      throw errors.conflict(
        gr(rt),
        name,
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${existing.metadata.resourceVersion}`,
      );
    }
    if (opts.dryRun) return { object: existing, deleted: true };
    if (storageKey(rt) === '/namespaces') return { object: this.deleteNamespace(existing), deleted: false };
    if ((existing.metadata.finalizers ?? []).length > 0) {
      if (existing.metadata.deletionTimestamp) return { object: existing, deleted: false };
      const marked = clone(existing);
      marked.metadata.deletionTimestamp = nowTimestamp();
      marked.metadata.deletionGracePeriodSeconds = 0;
      return { object: this.present(rt, this.store.put(storageKey(rt), marked)), deleted: false };
    }
    return { object: this.removeNow(rt, existing, options.propagationPolicy !== 'Orphan'), deleted: true };
  }

  deleteCollection(
    rt: ResourceType,
    ns: string | undefined,
    q: ListQuery,
    options: DeleteOptions = {},
    opts: WriteOptions = {},
  ): StoredObject[] {
    return this.list(rt, ns, { labelSelector: q.labelSelector ?? null, fieldSelector: q.fieldSelector ?? null }).items.map(
      (o) => this.delete(rt, o.metadata.namespace, o.metadata.name, options, opts).object,
    );
  }

  /** Removes the object now; a CRD takes its custom resources and served types with it. */
  removeNow(rt: ResourceType, o: StoredObject, cascade = true): StoredObject {
    if (storageKey(rt) === 'apiextensions.k8s.io/customresourcedefinitions') {
      const types = crdResourceTypes(o);
      const first = types[0];
      if (first)
        for (const cr of this.store.list(storageKey(first))) this.store.remove(storageKey(first), cr.metadata.namespace, cr.metadata.name);
      this.registry.setCrdTypes(o.metadata.name, []);
    }
    const removed = this.store.remove(storageKey(rt), o.metadata.namespace, o.metadata.name) ?? o;
    if (cascade) collectGarbage(this, removed);
    return this.present(rt, removed);
  }

  private deleteNamespace(ns: StoredObject): StoredObject {
    const name = ns.metadata.name;
    if (['default', 'kube-system', 'kube-public'].includes(name)) {
      throw errors.forbidden({ group: '', resource: 'namespaces' }, name, 'this namespace may not be deleted');
    }
    if (isTerminating(ns)) return ns;
    const marked = clone(ns);
    marked.metadata.deletionTimestamp = nowTimestamp();
    marked.status = { ...(marked.status as object), phase: 'Terminating' };
    const rt = this.registry.find('', 'v1', 'namespaces');
    const terminating = this.store.put('/namespaces', marked);
    const finalize = (): void => cascadeNamespace(this, name);
    if (this.options.namespaceFinalizeDelayMs > 0) setTimeout(finalize, this.options.namespaceFinalizeDelayMs).unref();
    else finalize();
    return rt ? this.present(rt, terminating) : terminating;
  }

  /** Side effects of a stored write: CRDs (un)serve their types, namespaces get their defaults, finalizers end. */
  private afterWrite(rt: ResourceType, o: StoredObject, created: boolean): void {
    const key = storageKey(rt);
    if (key === 'apiextensions.k8s.io/customresourcedefinitions') this.registry.setCrdTypes(o.metadata.name, crdResourceTypes(o));
    if (key === '/namespaces' && created && this.options.namespaceDefaults) namespaceDefaults(this, o.metadata.name);
    if (o.metadata.deletionTimestamp && (o.metadata.finalizers ?? []).length === 0 && key !== '/namespaces') this.removeNow(rt, o);
  }
}
