// Health, version and the API's own description: the routes a probe, the console's about box and a script's
// client generator read. Declared schema first.
import { z } from './zod';
import type { RoutesOf } from './route';

export const healthSchema = z.object({ status: z.literal('ok'), time: z.string() });
export type Health = z.infer<typeof healthSchema>;

export const managerModes = ['desktop', 'headless'] as const;

export const versionInfoSchema = z.object({
  name: z.literal('navin-manager'),
  version: z.string(),
  api: z.literal('v1'),
  mode: z.enum(managerModes),
});
export type VersionInfo = z.infer<typeof versionInfoSchema>;

/** An OpenAPI 3.1 document (./openapi.ts builds it from these schemas); its inside is described by that standard. */
export const openApiDocumentSchema = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.looseObject({})),
});

export const systemRouteSchemas = {
  'GET /api/v1/health': { result: healthSchema },
  'GET /api/v1/version': { result: versionInfoSchema },
  'GET /api/v1/openapi.json': { result: openApiDocumentSchema },
} as const;

export type SystemRoutes = RoutesOf<typeof systemRouteSchemas>;
