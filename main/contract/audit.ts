// The audit log, searchable, with the verdict of its hash chain. Declared schema first: the core's audit rows,
// filter and verdict are these types.
import { z } from './zod';
import type { RoutesOf } from './route';
import { LIMIT_RANGE, queryText, SEQ_RANGE } from './query';
import { queryWholeNumber } from './query-numbers';

export const auditRowSchema = z.object({
  seq: z.number(),
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  cluster_id: z.string().nullable(),
  /** What the row is about: a service's name for its operations, a host's, a path's. */
  target: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  prev_hash: z.string(),
  hash: z.string(),
});
export type AuditRow = z.infer<typeof auditRowSchema>;

export const auditQuerySchema = z.object({
  actor: queryText('actor'),
  cluster_id: queryText('cluster_id'),
  action: queryText('action'),
  target: queryText('target'),
  limit: queryWholeNumber('limit', LIMIT_RANGE, 200),
  /** The page before this sequence number (the last row of the page shown). */
  before_seq: queryWholeNumber('before_seq', SEQ_RANGE),
});
export type AuditQuery = z.input<typeof auditQuerySchema>;
/** The audit log's filter as the core reads it: each member optional, 200 rows unless said. */
export type AuditFilter = Partial<z.output<typeof auditQuerySchema>>;

export const chainVerdictSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), rows: z.number() }),
  /** The first row whose hash does not follow from its content and the previous row's hash, and why. */
  z.object({ ok: z.literal(false), rows: z.number(), first_broken_seq: z.number(), reason: z.string() }),
]);
export type ChainVerdict = z.infer<typeof chainVerdictSchema>;

export const auditRouteSchemas = {
  'GET /api/v1/audit': { query: auditQuerySchema, result: z.object({ items: z.array(auditRowSchema) }) },
  'GET /api/v1/audit/verify': { result: chainVerdictSchema },
} as const;

export type AuditRoutes = RoutesOf<typeof auditRouteSchemas>;
