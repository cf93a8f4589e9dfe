// metadata.managedFields as the API server's field manager keeps them: every write records what its manager set
// (operation Update), server-side apply owns exactly its configuration (operation Apply), and an apply that
// changes a field another manager owns is refused with the real 409 unless forced.
import { LAST_APPLIED } from './apply.js';
import type { Path, Resolve } from './field-sets.js';
import { FieldSet, compare, mergeApplied, pathString, removePaths, toFieldSet } from './field-sets.js';
import type { Schema } from './schemas.js';
import { StatusError } from './status.js';
import type { KubeObject, ResourceType } from './types.js';
import { canonicalJson, clone, groupVersion, hasSubresource, isPlainObject, nowTimestamp } from './types.js';

export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}

interface Owner {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  subresource?: string;
  time?: string;
  set: FieldSet;
}

/** The manager a first apply gives every field of an object nobody owned yet. */
export const BEFORE_FIRST_APPLY = 'before-first-apply';

/** BuildManagerIdentifier(): the entry without fields and time; appliers without their apiVersion. */
const identity = (o: Pick<Owner, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string =>
  JSON.stringify({
    manager: o.manager,
    operation: o.operation,
    ...(o.operation === 'Update' ? { apiVersion: o.apiVersion } : {}),
    ...(o.subresource ? { subresource: o.subresource } : {}),
  });

/** printManager(): `"kubectl"`, or `"kubectl-patch" using apps/v1` for an updater. */
const printManager = (o: Owner): string =>
  `${JSON.stringify(o.manager)}${o.subresource ? ` with subresource ${JSON.stringify(o.subresource)}` : ''}${o.operation === 'Update' ? ` using ${o.apiVersion}` : ''}`;

const decode = (entries: unknown): Map<string, Owner> | undefined => {
  if (!Array.isArray(entries)) return undefined;
  const out = new Map<string, Owner>();
  for (const e of entries) {
    if (!isPlainObject(e) || typeof e.manager !== 'string' || (e.operation !== 'Apply' && e.operation !== 'Update')) return undefined;
    const set = FieldSet.fromFieldsV1(e.fieldsV1 ?? {});
    if (!set) return undefined;
    const owner: Owner = {
      manager: e.manager,
      operation: e.operation,
      apiVersion: typeof e.apiVersion === 'string' ? e.apiVersion : '',
      ...(typeof e.subresource === 'string' && e.subresource ? { subresource: e.subresource } : {}),
      ...(typeof e.time === 'string' ? { time: e.time } : {}),
      set,
    };
    out.set(identity(owner), owner);
  }
  return out;
};

/** sortEncodedManagedFields(): by operation (Apply first), time, manager, apiVersion, subresource. */
const encode = (owners: Map<string, Owner>): ManagedFieldsEntry[] =>
  [...owners.values()]
    .filter((o) => o.set.size > 0)
    .sort(
      (a, b) =>
        a.operation.localeCompare(b.operation) ||
        (a.time ?? '').localeCompare(b.time ?? '') ||
        a.manager.localeCompare(b.manager) ||
        a.apiVersion.localeCompare(b.apiVersion) ||
        (a.subresource ?? '').localeCompare(b.subresource ?? ''),
    )
    .map((o) => ({
      manager: o.manager,
      operation: o.operation,
      apiVersion: o.apiVersion,
      ...(o.time ? { time: o.time } : {}),
      fieldsType: 'FieldsV1',
      fieldsV1: o.set.toFieldsV1(),
      ...(o.subresource ? { subresource: o.subresource } : {}),
    }));

const IGNORED_META = [
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'selfLink',
  'managedFields',
];

/** 409 with one FieldManagerConflict cause per field, worded as merge.Conflicts is. */
const conflictError = (conflicts: { owner: Owner; path: Path }[]): StatusError => {
  let message: string;
  const first = conflicts[0];
  if (conflicts.length === 1 && first) {
    message = `Apply failed with 1 conflict: conflict with ${printManager(first.owner)}: ${pathString(first.path)}`;
  } else {
    const byManager = new Map<string, { owner: Owner; paths: Path[] }>();
    for (const c of conflicts) {
      const key = identity(c.owner);
      const m = byManager.get(key) ?? { owner: c.owner, paths: [] };
      m.paths.push(c.path);
      byManager.set(key, m);
    }
    const lines = [...byManager.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .flatMap(([, m]) => [`conflicts with ${printManager(m.owner)}:`, ...m.paths.map((p) => `- ${pathString(p)}`)]);
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'Conflict',
    details: {
      causes: conflicts.map((c) => ({
        reason: 'FieldManagerConflict',
        message: `conflict with ${printManager(c.owner)}`,
        field: pathString(c.path),
      })),
    },
    code: 409,
  });
};

export interface ManagedWrite {
  manager: string;
  subresource: string;
}

export class FieldManager {
  constructor(
    private readonly resolve: Resolve,
    private readonly schemaOf: (rt: ResourceType) => Schema | undefined,
  ) {}

  /** What field management sees of an object: no apiVersion, kind, server-set metadata, nor the other half of status. */
  private tracked(rt: ResourceType, o: KubeObject | undefined, sub: string): unknown {
    if (o === undefined) return undefined;
    const { apiVersion: _a, kind: _k, metadata, ...rest } = clone(o);
    if (sub === 'status') return rest.status === undefined ? {} : { status: rest.status };
    const meta = isPlainObject(metadata) ? { ...metadata } : {};
    for (const f of IGNORED_META) delete meta[f];
    const out: Record<string, unknown> = { ...rest, ...(Object.keys(meta).length ? { metadata: meta } : {}) };
    if (hasSubresource(rt, 'status')) delete out.status;
    return out;
  }

  private owners(o: KubeObject | undefined): Map<string, Owner> {
    return decode(o?.metadata?.managedFields) ?? new Map();
  }

  /** The owners a non-apply write starts from: the request's managedFields when it sets them, else the live ones. */
  private requestOwners(live: KubeObject | undefined, next: KubeObject): Map<string, Owner> {
    const req = next.metadata?.managedFields;
    if (Array.isArray(req) && (req.length === 0 || (req.length === 1 && isPlainObject(req[0]) && Object.keys(req[0]).length === 0))) {
      return new Map();
    }
    const decoded = decode(req);
    return decoded && decoded.size > 0 ? decoded : this.owners(live);
  }

  private updateOwners(
    rt: ResourceType,
    owners: Map<string, Owner>,
    live: KubeObject | undefined,
    next: KubeObject,
    w: ManagedWrite,
  ): Map<string, Owner> {
    const schema = this.schemaOf(rt);
    const c = compare(this.resolve, schema, this.tracked(rt, live, w.subresource), this.tracked(rt, next, w.subresource), !rt.crd);
    const changed = c.modified.union(c.added);
    const out = new Map<string, Owner>();
    const me: Owner = { manager: w.manager, operation: 'Update', apiVersion: groupVersion(rt.group, rt.version), set: new FieldSet() };
    if (w.subresource) me.subresource = w.subresource;
    const key = identity(me);
    for (const [k, o] of owners) {
      if (k === key) continue;
      out.set(k, { ...o, set: o.set.minus(changed).minus(c.removed) });
    }
    const previous = owners.get(key);
    const set = (previous?.set ?? new FieldSet()).minus(c.removed).union(changed);
    const same = previous && canonicalJson(previous.set.toFieldsV1()) === canonicalJson(set.toFieldsV1());
    out.set(key, { ...me, set, time: same && previous.time ? previous.time : nowTimestamp() });
    return out;
  }

  /** The fields the live object's last-applied-configuration sets and still holds the value of, if it has one. */
  private lastAppliedFields(rt: ResourceType, live: KubeObject | undefined, sub: string): FieldSet | undefined {
    const text = live?.metadata?.annotations?.[LAST_APPLIED];
    if (!text) return undefined;
    try {
      const last = JSON.parse(text) as unknown;
      if (!isPlainObject(last)) return undefined;
      const schema = this.schemaOf(rt);
      const applied = this.tracked(rt, last, sub);
      // Only where the live object still holds the last-applied value: someone else changed the others since.
      const changed = compare(this.resolve, schema, applied, this.tracked(rt, live, sub), !rt.crd).modified;
      return toFieldSet(this.resolve, schema, applied).minus(changed);
    } catch {
      return undefined;
    }
  }

  /** managedFields after a create, update or non-apply patch of `next` (over `live`, absent on create). */
  update(rt: ResourceType, live: KubeObject | undefined, next: KubeObject, w: ManagedWrite): ManagedFieldsEntry[] {
    return encode(this.updateOwners(rt, this.requestOwners(live, next), live, next, w));
  }

  /**
   * Server-side apply of `config` over `live` (absent: the object is created). Returns the new object with its
   * managedFields, or throws the 409 conflict when the config changes fields other managers own and `force` is off.
   */
  apply(rt: ResourceType, live: KubeObject | undefined, config: KubeObject, w: ManagedWrite, force: boolean): KubeObject {
    if (config.metadata?.managedFields !== undefined) {
      throw new StatusError({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'metadata.managedFields must be nil',
        reason: 'BadRequest',
        code: 400,
      });
    }
    const schema = this.schemaOf(rt);
    let owners = this.owners(live);
    if (live && owners.size === 0)
      owners = this.updateOwners(rt, owners, {}, live, { manager: BEFORE_FIRST_APPLY, subresource: w.subresource });
    const me: Owner = { manager: w.manager, operation: 'Apply', apiVersion: groupVersion(rt.group, rt.version), set: new FieldSet() };
    if (w.subresource) me.subresource = w.subresource;
    const key = identity(me);
    const lastSet = owners.get(key)?.set ?? new FieldSet();
    const trackedConfig = this.tracked(rt, config, w.subresource);
    const set = toFieldSet(this.resolve, schema, trackedConfig);

    let merged = mergeApplied(this.resolve, schema, live ?? {}, config) as KubeObject;
    // What this manager applied before and no longer does goes, unless someone else owns it.
    const others = [...owners.entries()].filter(([k]) => k !== key).map(([, o]) => o.set);
    const drop = lastSet.list().filter((p) => !set.covers(p) && !others.some((o) => o.covers(p)));
    merged = removePaths(merged, drop) as KubeObject;

    const c = compare(this.resolve, schema, this.tracked(rt, live, w.subresource), this.tracked(rt, merged, w.subresource), !rt.crd);
    const changed = c.modified.union(c.added);
    const conflicts: { owner: Owner; path: Path }[] = [];
    const next = new Map<string, Owner>();
    for (const [k, o] of owners) {
      if (k === key) continue;
      const lost = o.set.intersect(changed);
      for (const path of lost.list()) conflicts.push({ owner: o, path });
      next.set(k, { ...o, set: o.set.minus(lost).minus(c.removed) });
    }
    // kubectl's server-side apply may take over what its client-side apply set: conflicts on fields of the
    // last-applied configuration are allowed (lastAppliedManager), so the upgrade to server-side apply is smooth.
    const allowed = w.manager === 'kubectl' && !force ? this.lastAppliedFields(rt, live, w.subresource) : undefined;
    const blocking = allowed ? conflicts.filter((c) => !allowed.has(c.path)) : conflicts;
    if (blocking.length > 0 && !force) throw conflictError(blocking);
    const previous = owners.get(key);
    const same = previous && canonicalJson(previous.set.toFieldsV1()) === canonicalJson(set.toFieldsV1());
    next.set(key, { ...me, set, time: same && previous.time ? previous.time : nowTimestamp() });

    // kubectl's server-side apply keeps a client-side apply annotation in step (lastAppliedUpdater).
    const annotations = merged.metadata?.annotations;
    if (w.manager === 'kubectl' && annotations?.[LAST_APPLIED] !== undefined) {
      const lastApplied = clone(config);
      const { [LAST_APPLIED]: _gone, ...rest } = lastApplied.metadata?.annotations ?? {};
      lastApplied.metadata = { ...lastApplied.metadata, annotations: rest };
      if (Object.keys(rest).length === 0) delete lastApplied.metadata.annotations;
      merged.metadata = { ...merged.metadata, annotations: { ...annotations, [LAST_APPLIED]: canonicalJson(lastApplied) } };
    }
    merged.metadata = { ...merged.metadata, managedFields: encode(next) };
    return merged;
  }
}
