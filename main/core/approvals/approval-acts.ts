// What can be approved, and the digest that binds an approval to the exact request it approves: an approval of
// "configuration of nats" must not apply just any configuration.
import { createHash } from 'node:crypto';
import { canonicalize } from '../../wire/canonical-json';
import { ValidationError } from '../errors';

/** The lifecycle's disruptive operations on a component or a service. */
export const FOUR_EYES_ACTIONS = ['stop', 'restart', 'reinstall', 'uninstall', 'upgrade', 'rollback', 'restore', 'configuration'] as const;
export type FourEyesAction = (typeof FOUR_EYES_ACTIONS)[number];

/**
 * Acts on a cluster that are no lifecycle operation but take it down or cut its agents off: four-eyes where the
 * cluster's profile wants it. A backup is one only when it stops a server (see the catalog's backup steps).
 */
export const CLUSTER_ACTS = ['delete_cluster', 'delete_host', 'reissue_identity', 'backup'] as const;

/**
 * Acts on the manager itself: each would let one admin pass four eyes alone later (a second admin of his own, an
 * admin's factor reset, a bundle key of his own), so they are four-eyes when any cluster in use wants it.
 */
export const SYSTEM_ACTS = ['create_admin', 'reset_admin_mfa', 'trust_release_key'] as const;

export const APPROVABLE = [...FOUR_EYES_ACTIONS, ...CLUSTER_ACTS, ...SYSTEM_ACTS] as const;
export type ApprovableAction = (typeof APPROVABLE)[number];

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
