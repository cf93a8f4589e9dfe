// The calls of the audit, key and user routes (contract: contract/audit.ts, contract/keys.ts,
// contract/users.ts).
import type { AuditQuery, UserCreate } from '../../../../preload/api';
import type { ApiCoreClass } from '../../api/core';

export const auditCalls = <B extends ApiCoreClass>(Base: B) =>
  class extends Base {
    listAudit = (query: AuditQuery = {}) => this.call('GET /api/v1/audit', { query });
    verifyAudit = () => this.call('GET /api/v1/audit/verify');
    listKeys = () => this.call('GET /api/v1/keys');
    managerPem = () => this.callText('GET /api/v1/keys/manager.pem');
    listUsers = () => this.call('GET /api/v1/users');
    createUser = (input: UserCreate) => this.call('POST /api/v1/users', { body: input });
    /** `approvalId`: another admin's approval, where a profile in use wants four eyes for an admin's factor. */
    async resetUserMfa(name: string, approvalId?: string): Promise<void> {
      await this.call('DELETE /api/v1/users/:name/mfa', { params: { name }, query: approvalId ? { approval_id: approvalId } : {} });
    }
  };
