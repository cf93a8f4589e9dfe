// The component sheet: one service of a cluster as its agents observed it, for the sheet's twelve tabs; its
// host figures over time, and its instances' logs read through the agents. The documents are the core's.
import type { ServiceLog, ServiceMetrics, ServiceSheet } from './sheet-types';

export type * from './sheet-types';

export interface ServiceSheetRoutes {
  'GET /api/v1/clusters/:id/services/:service/sheet': { result: ServiceSheet };
  /** Asks each host of the service to report now, then answers the sheet (15 s at most for the reports). */
  'POST /api/v1/clusters/:id/services/:service/sheet/refresh': { result: ServiceSheet };
  'GET /api/v1/clusters/:id/services/:service/metrics': { query: { minutes?: number }; result: ServiceMetrics };
  /** Reads the last lines of each instance's journal through its agent (a read-only signed command per host). */
  'POST /api/v1/clusters/:id/services/:service/logs': { body: { lines?: number }; result: { items: ServiceLog[] } };
}
