// Field validation of built-in kinds against their schemas, as decoding into the Go types does: unknown fields
// are dropped (reported for fieldValidation Warn and Strict), a value of the wrong shape is a decoding error.
import type { Resolve } from './field-sets.js';
import type { Schema } from './schemas.js';
import { isPlainObject } from './types.js';

export interface FieldCheck {
  /** Paths of the dropped fields: `spec.replica`, `spec.template.spec.containers[0].imagePullPolicyX`. */
  unknown: string[];
  /** `cannot unmarshal array into field data of type object`, for the first value of the wrong shape. */
  shapeErrors: string[];
}

const shapeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v);

/** Checks and prunes `obj` in place (apiVersion, kind and metadata included, as the Go struct has them). */
export const checkFields = (resolve: Resolve, root: Schema | undefined, obj: Record<string, unknown>): FieldCheck => {
  const out: FieldCheck = { unknown: [], shapeErrors: [] };
  const walk = (schema: Schema | undefined, v: unknown, path: string): void => {
    const s = resolve(schema);
    if (!s || v === null || v === undefined || s['x-kubernetes-int-or-string']) return;
    const preserve = !!s['x-kubernetes-preserve-unknown-fields'];
    const objectLike = s.type === 'object' || !!s.properties || isPlainObject(s.additionalProperties);
    if (objectLike) {
      if (!isPlainObject(v)) {
        out.shapeErrors.push(`json: cannot unmarshal ${shapeOf(v)} into field ${path || '(root)'} of type object`);
        return;
      }
      const extra = isPlainObject(s.additionalProperties) ? (s.additionalProperties as Schema) : undefined;
      for (const [k, x] of Object.entries(v)) {
        const p = path ? `${path}.${k}` : k;
        const sub = s.properties?.[k] ?? extra;
        if (sub) walk(sub, x, p);
        else if (!preserve && s.additionalProperties !== true) {
          delete v[k];
          out.unknown.push(p);
        }
      }
    } else if (s.type === 'array') {
      if (!Array.isArray(v)) out.shapeErrors.push(`json: cannot unmarshal ${shapeOf(v)} into field ${path} of type array`);
      else v.forEach((x, i) => walk(s.items, x, `${path}[${i}]`));
    } else if (s.type && (isPlainObject(v) || Array.isArray(v))) {
      out.shapeErrors.push(`json: cannot unmarshal ${shapeOf(v)} into field ${path} of type ${s.type}`);
    }
  };
  walk(root, obj, '');
  return out;
};
