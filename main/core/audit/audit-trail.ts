// The audit log as the console reads it: rows searched by actor, cluster and action, newest first, and the
// verdict of the hash chain. The rows are written by each service in the transaction of its change.
import type { AuditFilter, AuditRow, ChainVerdict } from '../../contract/audit';
import type { AuditLog } from '../store/audit-log';

/** Rows per page when the reader names no limit. */
export const AUDIT_PAGE = 200;

export class AuditTrail {
  constructor(private readonly log: AuditLog) {}

  list(query: AuditFilter = {}): AuditRow[] {
    return this.log.list({ ...query, limit: query.limit ?? AUDIT_PAGE });
  }

  verify(): ChainVerdict {
    return this.log.verify();
  }
}
