// The manager CA's rotation (issue 34): started by an admin (four eyes where a profile in use wants them), followed
// as the count of agents at each stage, with the agents the rotation waits for named. Declared schema first: the
// core's progress view is this type. Certificates only by their stage: no PEM, no key.
import { z } from './zod';
import type { RoutesOf } from './route';

export const caRotationStates = ['started', 'serving-new', 'retiring', 'done'] as const;
/** pending: trusts the old CA only; trusts-both; renewed: seen with a certificate of the new CA; trusts-new: the old CA retired. */
export const caRotationStages = ['pending', 'trusts-both', 'renewed', 'trusts-new'] as const;

export const caRotationAgentSchema = z.object({
  cluster_id: z.string(),
  /** Null for a cluster's agent. */
  host_id: z.string().nullable(),
  /** The host's name, or the cluster's for its agent. */
  name: z.string(),
  stage: z.enum(caRotationStages),
  last_seen: z.string().nullable(),
  /** Not seen within the last 45 s: the rotation waits for it. */
  offline: z.boolean(),
});
export type CaRotationAgent = z.infer<typeof caRotationAgentSchema>;

export const caRotationViewSchema = z.object({
  id: z.string(),
  state: z.enum(caRotationStates),
  started_by: z.string(),
  started_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().nullable(),
  /** Agents per stage. */
  stages: z.object({ pending: z.number(), 'trusts-both': z.number(), renewed: z.number(), 'trusts-new': z.number() }),
  agents: z.array(caRotationAgentSchema),
  /** The agents that have not reached what the current state waits for (empty once done). */
  waiting_for: z.array(z.string()),
});
export type CaRotationView = z.infer<typeof caRotationViewSchema>;

export const caRotationRouteSchemas = {
  /** The rotation under way, else the last one; null before any. */
  'GET /api/v1/ca/rotation': { result: z.object({ rotation: caRotationViewSchema.nullable() }) },
  /** approval_id: the approved request (action rotate_manager_ca) where a profile in use wants four eyes. */
  'POST /api/v1/ca/rotation': {
    body: z.object({ approval_id: z.string({ error: 'approval_id is the id of an approved request' }).nullish() }),
    result: z.object({ rotation: caRotationViewSchema }),
    status: 201,
  },
} as const;

export type CaRotationRoutes = RoutesOf<typeof caRotationRouteSchemas>;
