// Four-eyes approvals: the list, a request (operator) with the exact change it is for, the decision of another
// admin on that change (its digest).

export type ApprovalState = 'pending' | 'approved' | 'rejected' | 'used';

/** An approval as its viewer sees it. User ids stay (names can be reused); the names are given beside them. */
/** One value a configuration changes: its path, as JSON now and as approved (null: absent). */
export interface ApprovalDiffLine {
  path: string;
  before: string | null;
  after: string | null;
}

export interface Approval {
  id: string;
  /** Null for an act on the manager itself (create_admin, reset_admin_mfa, trust_release_key). */
  cluster_id: string | null;
  action: string;
  service: string;
  reason: string;
  state: ApprovalState;
  requested_by: string;
  requested_by_name: string;
  requested_at: string;
  decided_by: string | null;
  decided_by_name: string | null;
  decided_at: string | null;
  decision_note: string | null;
  expires_at: string | null;
  used_at: string | null;
  used_by_command: string | null;
  /** What the action alone does not say: the spec, settings, version or backup set approved (null: nothing). */
  change: unknown;
  /** sha256 (hex) of the RFC 8785 canonical JSON of {action, cluster_id, service, change}. */
  digest: string | null;
  /** For a configuration, each value it changes beside the current one. */
  diff: ApprovalDiffLine[] | null;
  /** Approved, unused, unexpired, and the viewer is its requester: the viewer can launch the operation with it. */
  usable: boolean;
}

export interface ApprovalRequest {
  /** Left out for an act on the manager itself. */
  cluster_id?: string;
  action: string;
  service: string;
  reason: string;
  /** Exactly what will be sent with the act (e.g. {spec}, {settings}, {version}, {backup_set_id}). */
  change?: unknown;
}

export interface ApprovalQuery {
  cluster_id?: string;
  state?: ApprovalState;
}

export interface ApprovalDecision {
  note?: string;
}

export interface ApprovalRoutes {
  'GET /api/v1/approvals': { query: ApprovalQuery; result: { items: Approval[] } };
  'POST /api/v1/approvals': { body: ApprovalRequest; result: Approval };
  'GET /api/v1/approvals/:id': { result: Approval };
  'POST /api/v1/approvals/:id/approve': { body: ApprovalDecision; result: Approval };
  'POST /api/v1/approvals/:id/reject': { body: ApprovalDecision; result: Approval };
}
