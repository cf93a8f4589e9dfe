// The console API: every route of /api/v1, assembled once from the domain modules for both transports (IPC and
// HTTPS). It stays beside them, outside main/core, as the one place that sees every domain's routes at once.
import { ROUTE_SCHEMAS, type RouteSchemaTable } from '../contract';
import { Router } from '../core/http/router';
import type { DomainModule } from '../core/module';
import { MODULES } from '../core/modules';

/** `schemas` holds every route the modules add (a test gives a fixture domain's beside the contract's). */
export function consoleApi(modules: readonly DomainModule[] = MODULES, schemas: RouteSchemaTable = ROUTE_SCHEMAS): Router {
  const router = new Router(schemas);
  for (const m of modules) m.routes?.(router);
  return router;
}
