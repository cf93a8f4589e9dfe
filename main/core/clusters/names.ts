// Naming rules shared by clusters and Kubernetes objects (DNS-1123, as Kubernetes itself enforces them).

import { DNS1123_LABEL, DNS1123_SUBDOMAIN } from '../../contract/clusters';

export { DNS1123_LABEL, DNS1123_SUBDOMAIN };
/** An RFC 1123 host name: labels of letters, digits and inner hyphens, 253 characters at most, a final dot allowed. */
export const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;
/** A fully qualified name: a host name of at least two labels. */
export const isFqdn = (v: string): boolean => HOST_NAME.test(v) && v.replace(/\.$/, '').includes('.');

export function nameProblem(name: unknown, max = 253): string | undefined {
  if (typeof name !== 'string' || name.length === 0) return 'a name is required';
  if (name.length > max) return `a name has at most ${max} characters`;
  if (!DNS1123_SUBDOMAIN.test(name))
    return 'a name uses only lowercase letters, digits, "-" and ".", and starts and ends with a letter or digit';
  return undefined;
}

export function labelProblem(label: unknown): string | undefined {
  if (typeof label !== 'string' || label.length === 0) return 'a value is required';
  if (label.length > 63) return 'at most 63 characters';
  if (!DNS1123_LABEL.test(label))
    return 'only lowercase letters, digits and "-", starting and ending with a letter or digit (DNS-1123 label)';
  return undefined;
}
