// Drift of hosts clusters: the findings (a managed file or unit modified, deleted or replaced outside the
// console), the config_drift alert while any is open, the cluster's mode (realign, or report only during a change
// freeze), a scan on demand, and realigning a finding's service through the lifecycle gate. Declared schema
// first: the core's drift views are these types.
import { hostFields } from './records';
import { z } from './zod';
import type { RoutesOf } from './route';
import { operationViewSchema } from './services';

export const driftModes = ['realign', 'report_only'] as const;
export type DriftMode = (typeof driftModes)[number];

export const driftFindingViewSchema = z.object({
  id: z.string(),
  cluster_id: z.string(),
  ...hostFields,
  path: z.string(),
  kind: z.enum(['file', 'unit']),
  state: z.enum(['modified', 'deleted', 'replaced']),
  expected_sha256: z.string(),
  observed_sha256: z.string().nullable(),
  /** What stands there instead (a symlink's target, …). */
  detail: z.string().nullable(),
  /** The command that last wrote the file as the console meant it. */
  command_id: z.string(),
  detected_at: z.string(),
  last_seen_at: z.string(),
  resolved_at: z.string().nullable(),
  resolution: z.enum(['restored', 'realigned', 'removed']).nullable(),
  /** The service the path belongs to, when one is installed. */
  service: z.string().nullable(),
});
export type DriftFindingView = z.infer<typeof driftFindingViewSchema>;

export const DRIFT_ALERT = 'config_drift';

export const driftViewSchema = z.object({
  cluster_id: z.string(),
  mode: z.enum(driftModes),
  /** Open while any finding is. */
  alert: z.object({ code: z.literal(DRIFT_ALERT), open_findings: z.number(), since: z.string() }).nullable(),
  findings: z.array(driftFindingViewSchema),
  /** The hosts whose agent answered the last scan of this call, and those that did not in time. */
  scanned: z.object({ hosts: z.array(z.string()), unanswered: z.array(z.string()) }).optional(),
});
export type DriftView = z.infer<typeof driftViewSchema>;

export const driftModeBodySchema = z.object({ mode: z.enum(driftModes, { error: 'mode is realign or report_only' }) });

/** An approval of the realign (a configuration of the finding's service); "" is none. */
export const driftRealignBodySchema = z.object({ approval_id: z.string({ error: 'approval_id is an approval id' }).optional() });

export const driftRouteSchemas = {
  'GET /api/v1/clusters/:id/drift': { result: driftViewSchema },
  'POST /api/v1/clusters/:id/drift/scan': { result: driftViewSchema },
  'PUT /api/v1/clusters/:id/drift/mode': { body: driftModeBodySchema, result: driftViewSchema },
  // The operation a realign starts is the services family's.
  'POST /api/v1/drift/findings/:id/realign': { body: driftRealignBodySchema, result: operationViewSchema, status: 202 },
} as const;

export type DriftRoutes = RoutesOf<typeof driftRouteSchemas>;
