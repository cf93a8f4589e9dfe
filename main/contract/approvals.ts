// Four-eyes approvals: the list, a request (operator) with the exact change it is for, the decision of another
// admin on that change (its digest). Declared schema first: the core's approval views are these types, and the
// acts that can be approved are the contract's word lists.
import { z } from './zod';
import type { RoutesOf } from './route';
import { queryText, queryWord } from './query';

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
export const SYSTEM_ACTS = ['create_admin', 'reset_admin_mfa', 'trust_release_key', 'rotate_manager_ca'] as const;

export const APPROVABLE = [...FOUR_EYES_ACTIONS, ...CLUSTER_ACTS, ...SYSTEM_ACTS] as const;
export type ApprovableAction = (typeof APPROVABLE)[number];

export const APPROVAL_STATES = ['pending', 'approved', 'rejected', 'used'] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

/** One value a configuration changes: its path, as JSON now and as approved (null: absent). */
export const approvalDiffLineSchema = z.object({
  path: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
});
export type ApprovalDiffLine = z.infer<typeof approvalDiffLineSchema>;

/** An approval as its viewer sees it. User ids stay (names can be reused); the names are given beside them. */
export const approvalSchema = z.object({
  id: z.string(),
  /** Null for an act on the manager itself (create_admin, reset_admin_mfa, trust_release_key, rotate_manager_ca). */
  cluster_id: z.string().nullable(),
  /** An approvable act when it was requested. */
  action: z.string(),
  service: z.string(),
  reason: z.string(),
  state: z.enum(APPROVAL_STATES),
  requested_by: z.string(),
  requested_by_name: z.string(),
  requested_at: z.string(),
  decided_by: z.string().nullable(),
  decided_by_name: z.string().nullable(),
  decided_at: z.string().nullable(),
  decision_note: z.string().nullable(),
  expires_at: z.string().nullable(),
  used_at: z.string().nullable(),
  used_by_command: z.string().nullable(),
  /** What the action alone does not say: the spec, settings, version or backup set approved (null: nothing). */
  change: z.unknown(),
  /** sha256 (hex) of the RFC 8785 canonical JSON of {action, cluster_id, service, change}. */
  digest: z.string().nullable(),
  /** For a configuration, an upgrade or a rollback: each value it changes beside the current one (else null). */
  diff: z.array(approvalDiffLineSchema).nullable(),
  /** Approved, unused, unexpired, and the viewer is its requester: the viewer can launch the operation with it. */
  usable: z.boolean(),
});
export type Approval = z.infer<typeof approvalSchema>;

/**
 * A request for one act. The shape is judged here; what depends on the act (the service's name rule, whether a
 * cluster is named, the reason's length once trimmed) the core judges, as it is asked directly too.
 */
export const approvalRequestSchema = z.object({
  action: z.enum(APPROVABLE, { error: `action is one of ${APPROVABLE.join(', ')}` }),
  service: z.string({ error: 'service (what the act is on) is a name' }),
  reason: z.string({ error: 'reason is required' }),
  /** Left out for an act on the manager itself. */
  cluster_id: z.string({ error: 'cluster_id is required' }).nullish(),
  /** Exactly what will be sent with the act (e.g. {spec}, {settings}, {version}, {backup_set_id}). */
  change: z.unknown().optional(),
});
export type ApprovalRequest = z.infer<typeof approvalRequestSchema>;

export const approvalQuerySchema = z.object({
  cluster_id: queryText('cluster_id'),
  state: queryWord('state', APPROVAL_STATES),
});
export type ApprovalQuery = z.input<typeof approvalQuerySchema>;

/** No body is a decision without a note. */
export const approvalDecisionSchema = z.object({ note: z.string({ error: 'note must be a string' }).nullish() }).optional();
export type ApprovalDecision = z.infer<typeof approvalDecisionSchema>;

export const approvalRouteSchemas = {
  'GET /api/v1/approvals': { query: approvalQuerySchema, result: z.object({ items: z.array(approvalSchema) }) },
  'POST /api/v1/approvals': { body: approvalRequestSchema, result: approvalSchema, status: 201 },
  'GET /api/v1/approvals/:id': { result: approvalSchema },
  'POST /api/v1/approvals/:id/approve': { body: approvalDecisionSchema, result: approvalSchema },
  'POST /api/v1/approvals/:id/reject': { body: approvalDecisionSchema, result: approvalSchema },
} as const;

export type ApprovalRoutes = RoutesOf<typeof approvalRouteSchemas>;
