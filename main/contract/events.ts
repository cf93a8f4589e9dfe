// The events the manager pushes to every console (IPC in the desktop app, Server-Sent Events in headless mode):
// one zod schema of its data per event. The core emits them typed by this map (an unknown event or a wrong payload
// does not compile), preload hands the same union to the renderer, and the console parses what arrives over the
// network with these schemas rather than trusting it. Portable: zod and types only, no Node API.
import { z } from './zod';
import type { CheckOutcome } from '../wire/service-checks';
import { importProgressSchema } from './mirror';
import { PREFLIGHT_OUTCOMES } from './profiles';
import { REPORT_VERDICTS } from './check-types';

const id = z.string().min(1);

// The gateway judged each outcome (the wire's HOST_REPORT) before the event; the console reads none of it, so
// the schema keeps its type and asks only for an object.
const checkOutcome = z.custom<CheckOutcome>((v) => typeof v === 'object' && v !== null && !Array.isArray(v));

const event = <K extends string, D extends z.ZodType>(type: K, data: D) => z.object({ type: z.literal(type), data });

/** Every event, discriminated by its type. */
export const CORE_EVENT = z.discriminatedUnion('type', [
  /** A cluster agent (or a hosts cluster's node agent, `host_id`) called the gateway. */
  event('agent.seen', z.object({ cluster_id: id, host_id: id.optional() })),
  /** An approval was requested, decided or used; `cluster_id` null for an act on the manager itself. */
  event('approval.changed', z.object({ id, cluster_id: id.nullable() })),
  event('backup.created', z.object({ id, cluster_id: id })),
  /** A service backup set moved on (one of its backups ended). */
  event('backup.changed', z.object({ cluster_id: id, backup_set_id: id })),
  /** A cluster was created, changed, registered, re-issued, removed, or its agent reported its inventory. */
  event('cluster.changed', z.object({ id })),
  /** A command was queued, delivered (no `id`: the batch of a poll), received or progressed; `host_id` for a host's. */
  event('command.changed', z.object({ id: id.optional(), cluster_id: id, host_id: id.optional() })),
  event('drift.changed', z.object({ cluster_id: id })),
  event('host.changed', z.object({ id, cluster_id: id })),
  /** The liveness of the watched units a host's agent measured, by unit name. */
  event('host.liveness', z.object({ host_id: id, cluster_id: id, liveness: z.record(z.string(), checkOutcome) })),
  event('mirror.import.changed', z.object({ id })),
  /** An import's progress, as its record shows it while it runs. */
  event('mirror.import.progress', importProgressSchema.extend({ id })),
  event('preflight.completed', z.object({ id, cluster_id: id, outcome: z.enum(PREFLIGHT_OUTCOMES) })),
  event('report.created', z.object({ id, cluster_id: id, verdict: z.enum(REPORT_VERDICTS) })),
  /** A service's operation or its check outcomes changed (`operation_id` when an operation moved). */
  event('service.changed', z.object({ cluster_id: id, service: z.string().min(1), operation_id: id.optional() })),
  event('support.changed', z.object({ cluster_id: id, id })),
]);

/** One pushed event: a union discriminated by `type`, so `data` is known once `type` is compared. */
export type CoreEvent = z.infer<typeof CORE_EVENT>;
export type EventType = CoreEvent['type'];
export const EVENT_TYPES: readonly EventType[] = CORE_EVENT.options.map((o) => o.shape.type.value);

/** The data of each event, by its type. */
export type EventMap = { [E in CoreEvent as E['type']]: E['data'] };

/** A value received as an event (e.g. an SSE `data:` line), or null when it is no event of this map or its data is not its shape. */
export function parseCoreEvent(value: unknown): CoreEvent | null {
  const parsed = CORE_EVENT.safeParse(value);
  return parsed.success ? parsed.data : null;
}
