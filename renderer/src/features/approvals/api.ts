// The calls of the four-eyes approval routes (contract: contract/approvals.ts).
import type { ApprovalQuery, ApprovalRequest } from '../../../../preload/api';
import type { ApiCoreClass } from '../../api/core';

export const approvalCalls = <B extends ApiCoreClass>(Base: B) =>
  class extends Base {
    listApprovals = (query: ApprovalQuery = {}) => this.call('GET /api/v1/approvals', { query: { ...query } });
    requestApproval = (input: ApprovalRequest) => this.call('POST /api/v1/approvals', { body: input });
    decideApproval(id: string, decision: 'approve' | 'reject', note?: string) {
      const route = decision === 'approve' ? 'POST /api/v1/approvals/:id/approve' : 'POST /api/v1/approvals/:id/reject';
      return this.call(route, { params: { id }, body: note ? { note } : {} });
    }
  };
