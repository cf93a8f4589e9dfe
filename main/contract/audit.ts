// The audit log, searchable, with the verdict of its hash chain.

export interface AuditRow {
  seq: number;
  at: string;
  actor: string;
  action: string;
  cluster_id: string | null;
  target: string | null;
  details: Record<string, unknown>;
  prev_hash: string;
  hash: string;
}

export interface AuditQuery {
  actor?: string;
  cluster_id?: string;
  action?: string;
  target?: string;
  limit?: number;
  before_seq?: number;
}

export type ChainVerdict = { ok: true; rows: number } | { ok: false; rows: number; first_broken_seq: number; reason: string };

export interface AuditRoutes {
  'GET /api/v1/audit': { query: AuditQuery; result: { items: AuditRow[] } };
  'GET /api/v1/audit/verify': { result: ChainVerdict };
}
