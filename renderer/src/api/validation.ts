// The console's inline checks of its forms, by the contract's rules (its name rules, word lists and image
// reference, through preload/api.ts) with a finer problem than pass/fail for a helpful message. The server stays
// the authority: its error (400 invalid_field naming the field, 409 name_taken) is shown as well.
import {
  COMPONENT_REPLICAS_MAX,
  COMPONENT_VERSION_MAX,
  DNS1123_LABEL,
  DNS1123_SUBDOMAIN,
  IMAGE_BY_DIGEST,
  MAX_CLUSTER_NAME,
  componentKinds,
} from '../../../preload/api';

export type NameProblem = 'required' | 'too_long' | 'uppercase' | 'invalid_chars' | 'edge';
export type ClusterNameProblem = NameProblem;
export type LabelProblem = NameProblem;

/** The first problem of `value` under a DNS-1123 `rule` of at most `max` characters, most helpful first. The rule
 * alone decides; its character set is read from it too: a name of allowed characters only passes it once framed
 * by a letter at each end, so a name failing it still is one whose first or last character is wrong. */
function dnsNameProblem(value: string, rule: RegExp, max: number): NameProblem | null {
  if (value.length === 0) return 'required';
  if (value.length > max) return 'too_long';
  if (rule.test(value)) return null;
  const allowed = (v: string): boolean => rule.test(`a${v}a`);
  if (!allowed(value)) return /[A-Z]/.test(value) && allowed(value.toLowerCase()) ? 'uppercase' : 'invalid_chars';
  return 'edge';
}

/** null when `name` is a valid cluster name: a DNS-1123 subdomain (lowercase letters, digits, '-' and '.',
 * starting and ending with a letter or digit) of at most 253 characters. Otherwise the first problem found. */
export function validateClusterName(name: string): NameProblem | null {
  return dnsNameProblem(name, DNS1123_SUBDOMAIN, MAX_CLUSTER_NAME);
}

export function isValidClusterName(name: string): boolean {
  return validateClusterName(name) === null;
}

// --- Kubernetes names (DNS-1123), as the manager and Kubernetes check them ---

/** null when `value` is a DNS-1123 label (a namespace): lowercase letters, digits and '-', starting and ending
 * with a letter or digit, at most 63 characters. */
export function validateNamespace(value: string): NameProblem | null {
  return dnsNameProblem(value, DNS1123_LABEL, 63);
}

/** A ManagedComponent's name: a DNS-1123 subdomain of at most 63 characters. */
export function validateComponentName(value: string): NameProblem | null {
  return dnsNameProblem(value, DNS1123_SUBDOMAIN, 63);
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
  if (typeof s.component !== 'string' || !(componentKinds as readonly string[]).includes(s.component))
    return { field: 'spec.component', problem: 'component' };
  if (typeof s.version !== 'string' || s.version.length === 0 || s.version.length > COMPONENT_VERSION_MAX)
    return { field: 'spec.version', problem: 'version' };
  if (
    s.replicas !== undefined &&
    (!Number.isInteger(s.replicas) || (s.replicas as number) < 0 || (s.replicas as number) > COMPONENT_REPLICAS_MAX)
  ) {
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
