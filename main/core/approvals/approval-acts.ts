// What can be approved, and the digest that binds an approval to the exact request it approves: an approval of
// "configuration of nats" must not apply just any configuration.
import { createHash } from 'node:crypto';
import { canonicalize } from '../../wire/canonical-json';
import { ValidationError } from '../errors';
import { APPROVABLE, FOUR_EYES_ACTIONS, SYSTEM_ACTS, type ApprovableAction, type FourEyesAction } from '../../contract/approvals';

export { APPROVABLE, CLUSTER_ACTS, FOUR_EYES_ACTIONS, SYSTEM_ACTS } from '../../contract/approvals';
export type { ApprovableAction, FourEyesAction } from '../../contract/approvals';

export const isFourEyesAction = (v: unknown): v is FourEyesAction =>
  typeof v === 'string' && (FOUR_EYES_ACTIONS as readonly string[]).includes(v);
export const isApprovable = (v: unknown): v is ApprovableAction => typeof v === 'string' && (APPROVABLE as readonly string[]).includes(v);
export const isSystemAct = (v: string): boolean => (SYSTEM_ACTS as readonly string[]).includes(v);

/** The target of a system act whose target has no name of its own. */
export const RELEASE_KEY_TARGET = 'release-key';

/** The largest canonical request an approval keeps: a service's whole settings fit many times over. */
export const MAX_CHANGE_BYTES = 64 * 1024;

/** The exact request an approval is for; `change` holds what the action alone does not say (settings, version, set). */
export interface ApprovedRequest {
  action: string;
  cluster_id: string | null;
  service: string;
  change: unknown;
}

/** RFC 8785 canonical JSON of the request, as the signed envelopes use; undefined is no change (null). */
export function canonicalRequest(r: ApprovedRequest): string {
  const value = { action: r.action, cluster_id: r.cluster_id, service: r.service, change: r.change === undefined ? null : r.change };
  let text: string;
  try {
    text = canonicalize(value);
  } catch (error) {
    throw new ValidationError('change', `change must be plain JSON: ${(error as Error).message}`);
  }
  if (Buffer.byteLength(text) > MAX_CHANGE_BYTES)
    throw new ValidationError('change', `the request approved has at most ${MAX_CHANGE_BYTES} bytes as canonical JSON`);
  return text;
}

export const requestDigest = (canonical: string): string => createHash('sha256').update(canonical, 'utf8').digest('hex');
