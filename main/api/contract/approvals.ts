// Four-eyes approvals: the list, a request (operator), the decision of another admin.

export type ApprovalState = 'pending' | 'approved' | 'rejected' | 'used';

/** An approval as its viewer sees it. User ids stay (names can be reused); the names are given beside them. */
export interface Approval {
  id: string;
  cluster_id: string;
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
  /** Approved, unused, unexpired, and the viewer is its requester: the viewer can launch the operation with it. */
  usable: boolean;
}

export interface ApprovalRequest {
  cluster_id: string;
  action: string;
  service: string;
  reason: string;
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
