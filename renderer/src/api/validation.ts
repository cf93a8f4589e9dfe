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

/** The manager refuses shorter passwords (400 invalid_field, field 'password'). */
export const MIN_PASSWORD_LENGTH = 10;
