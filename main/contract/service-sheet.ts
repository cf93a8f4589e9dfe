// The component sheet: one service of a cluster as its agents observed it, for the sheet's twelve tabs; its
// host figures over time, and its instances' logs read through the agents. Declared schema first; the documents
// are sheet-types.ts.
import { MAX_JOURNAL_LINES } from '../wire/node-agent';
import { queryWholeNumber } from './query-numbers';
import type { RoutesOf } from './route';
import { serviceLogSchema, serviceMetricsSchema, serviceSheetSchema } from './sheet-types';
import { z } from './zod';

export type * from './sheet-types';

/** How far back the host figures go at most: a day. */
export const MAX_METRICS_MINUTES = 24 * 60;

const LINES_RULE = `lines is a whole number from 1 to ${MAX_JOURNAL_LINES}`;

/** How many of each journal's last lines to read; 200 when absent. */
export const serviceLogsBodySchema = z.object({
  lines: z.int({ error: LINES_RULE }).min(1, { error: LINES_RULE }).max(MAX_JOURNAL_LINES, { error: LINES_RULE }).optional(),
});
export type ServiceLogsRequest = z.input<typeof serviceLogsBodySchema>;

export const serviceSheetRouteSchemas = {
  'GET /api/v1/clusters/:id/services/:service/sheet': { result: serviceSheetSchema },
  // Asks each host of the service to report now, then answers the sheet (15 s at most for the reports).
  'POST /api/v1/clusters/:id/services/:service/sheet/refresh': { result: serviceSheetSchema },
  'GET /api/v1/clusters/:id/services/:service/metrics': {
    query: z.object({ minutes: queryWholeNumber('minutes', { min: 1, max: MAX_METRICS_MINUTES }, 60) }),
    result: serviceMetricsSchema,
  },
  // Reads the last lines of each instance's journal through its agent (a read-only signed command per host).
  'POST /api/v1/clusters/:id/services/:service/logs': {
    body: serviceLogsBodySchema,
    result: z.object({ items: z.array(serviceLogSchema) }),
  },
} as const;

export type ServiceSheetRoutes = RoutesOf<typeof serviceSheetRouteSchemas>;
