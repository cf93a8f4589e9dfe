// Client-side mirror of the server's rules, for inline validation. The server stays the authority: its error
// (400 invalid_field with field 'name', 409 name_taken) is shown as well.

export const CLUSTER_NAME_MAX = 253;

export type ClusterNameProblem = 'required' | 'too_long' | 'uppercase' | 'invalid_chars' | 'edge';

const ALLOWED = /^[a-z0-9.-]+$/;
const EDGES = /^[a-z0-9](?:.*[a-z0-9])?$/s;

/** null when `name` is a valid cluster name: lowercase letters, digits, '-' and '.', starting and ending with
 * a letter or digit, at most 253 characters. Otherwise the first problem found, most helpful first. */
export function validateClusterName(name: string): ClusterNameProblem | null {
  if (name.length === 0) return 'required';
  if (name.length > CLUSTER_NAME_MAX) return 'too_long';
  if (!ALLOWED.test(name)) return /[A-Z]/.test(name) && ALLOWED.test(name.toLowerCase()) ? 'uppercase' : 'invalid_chars';
  if (!EDGES.test(name)) return 'edge';
  return null;
}

export function isValidClusterName(name: string): boolean {
  return validateClusterName(name) === null;
}

// --- Kubernetes names (DNS-1123), as the manager and Kubernetes check them ---

export const DEFAULT_NAMESPACE = 'navin-platform';
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

export type LabelProblem = 'required' | 'too_long' | 'uppercase' | 'invalid_chars' | 'edge';

/** A DNS-1123 name of at most 63 characters, of the characters `allowed` and of the `shape` (no '-' or '.' at
 * either end). */
function validateDnsName(value: string, allowed: RegExp, shape: RegExp): LabelProblem | null {
  if (value.length === 0) return 'required';
  if (value.length > 63) return 'too_long';
  if (!allowed.test(value)) return /[A-Z]/.test(value) && allowed.test(value.toLowerCase()) ? 'uppercase' : 'invalid_chars';
  return shape.test(value) ? null : 'edge';
}

/** null when `value` is a DNS-1123 label (a namespace): lowercase letters, digits and '-', starting and ending
 * with a letter or digit, at most 63 characters. */
export function validateNamespace(value: string): LabelProblem | null {
  return validateDnsName(value, /^[a-z0-9-]+$/, DNS1123_LABEL);
}

/** A ManagedComponent's name: a DNS-1123 subdomain of at most 63 characters. */
export function validateComponentName(value: string): LabelProblem | null {
  return validateDnsName(value, /^[a-z0-9.-]+$/, DNS1123_SUBDOMAIN);
}

// --- the agent gateway URL and image references ---

export type GatewayUrlProblem = 'required' | 'not_url' | 'not_https' | 'no_host' | 'credentials' | 'path';

/** The manager's rule: https, a host (and a port), nothing else. */
export function validateGatewayUrl(value: string): GatewayUrlProblem | null {
  const v = value.trim();
  if (v.length === 0) return 'required';
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    return 'not_url';
  }
  if (url.protocol !== 'https:') return 'not_https';
  if (!url.hostname) return 'no_host';
  if (url.username || url.password) return 'credentials';
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) return 'path';
  return null;
}

export function validateServerName(value: string): 'invalid' | null {
  return value === '' || DNS1123_SUBDOMAIN.test(value) ? null : 'invalid';
}

export const IMAGE_BY_DIGEST =
  /^[a-z0-9]+([._-][a-z0-9]+)*(:[0-9]+)?(\/[a-z0-9]+([._-][a-z0-9]+)*)*(:[\w][\w.-]{0,127})?@sha256:[a-f0-9]{64}$/;

export type ImageProblem = 'required' | 'tag_only' | 'invalid';

/** An image reference must be pinned by digest: `<registry>/<name>@sha256:<64 hex digits>`. */
export function validateImageDigest(value: string): ImageProblem | null {
  const v = value.trim();
  if (v.length === 0) return 'required';
  if (!v.includes('@sha256:')) return 'tag_only';
  if (!IMAGE_BY_DIGEST.test(v)) return 'invalid';
  return null;
}

// --- ManagedComponent specs (the CRD's schema) ---

export const COMPONENT_KINDS = ['opa', 'openfga', 'etcd', 'nats', 'node-exporter'] as const;
export type ComponentKindName = (typeof COMPONENT_KINDS)[number];

export type SpecProblem =
  'not_object' | 'unknown_field' | 'component' | 'version' | 'replicas' | 'artifacts' | 'artifact' | 'resources' | 'config';

export interface SpecIssue {
  /** The field as the manager names it, e.g. `spec.version` or `spec.artifacts[1]`. */
  field: string;
  problem: SpecProblem;
}

/** A Kubernetes quantity such as `500m`, `2`, `256Mi`, `1.5Gi`. */
const QUANTITY = /^[0-9]+(\.[0-9]+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/;

export function isQuantity(v: string): boolean {
  return QUANTITY.test(v);
}

/** The first problem of a spec, checked in the manager's order; null when the manager should accept it. */
export function validateComponentSpec(input: unknown): SpecIssue | null {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { field: 'spec', problem: 'not_object' };
  const s = input as Record<string, unknown>;
  const known = new Set(['component', 'version', 'replicas', 'artifacts', 'resources', 'config']);
  for (const k of Object.keys(s)) if (!known.has(k)) return { field: `spec.${k}`, problem: 'unknown_field' };
  if (typeof s.component !== 'string' || !(COMPONENT_KINDS as readonly string[]).includes(s.component))
    return { field: 'spec.component', problem: 'component' };
  if (typeof s.version !== 'string' || s.version.length === 0 || s.version.length > 64)
    return { field: 'spec.version', problem: 'version' };
  if (s.replicas !== undefined && (!Number.isInteger(s.replicas) || (s.replicas as number) < 0 || (s.replicas as number) > 99)) {
    return { field: 'spec.replicas', problem: 'replicas' };
  }
  if (s.artifacts !== undefined) {
    if (!Array.isArray(s.artifacts)) return { field: 'spec.artifacts', problem: 'artifacts' };
    for (let i = 0; i < s.artifacts.length; i++) {
      const a = s.artifacts[i] as Record<string, unknown> | null;
      if (
        typeof a !== 'object' ||
        a === null ||
        typeof a.name !== 'string' ||
        a.name === '' ||
        typeof a.image !== 'string' ||
        validateImageDigest(a.image) !== null
      ) {
        return { field: `spec.artifacts[${i}]`, problem: 'artifact' };
      }
    }
  }
  if (s.resources !== undefined) {
    const r = s.resources;
    if (typeof r !== 'object' || r === null || Array.isArray(r) || Object.values(r).some((v) => typeof v !== 'string' || !isQuantity(v))) {
      return { field: 'spec.resources', problem: 'resources' };
    }
  }
  if (s.config !== undefined && (typeof s.config !== 'object' || s.config === null || Array.isArray(s.config)))
    return { field: 'spec.config', problem: 'config' };
  return null;
}
