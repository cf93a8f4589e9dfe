// The service catalog, read only: a summary per service for the list, one service's whole descriptor with its
// versions resolved (each artifact's mirror key, placement, and whether a bundle can carry it). Declared schema
// first: the core's catalog views and resolved artifacts are these types.
import type { RoutesOf } from './route';
import { rollbackPossibilitySchema } from './services';
import { catalogServiceFields } from './records';
import { z } from './zod';

/** Where the bundle builder takes a file from on the connected side. */
export const catalogArtifactSourceSchema = z.object({
  debian: z.object({ package: z.string(), version: z.string(), path: z.string().optional() }),
});
export type CatalogArtifactSource = z.infer<typeof catalogArtifactSourceSchema>;

export const catalogPlatformViewSchema = z.discriminatedUnion('available', [
  z.object({
    architecture: z.string(),
    available: z.literal(true),
    digest: z.string(),
    size: z.number(),
    source: catalogArtifactSourceSchema,
  }),
  z.object({ architecture: z.string(), available: z.literal(false), reason: z.string() }),
]);
export type CatalogPlatformView = z.infer<typeof catalogPlatformViewSchema>;

/** One artifact of one version, keyed `<service>:<name>@<version>`, placed at `navin/<service>/<name>:<version>`. */
export const catalogArtifactViewSchema = z.object({
  key: z.string(),
  repository: z.string(),
  tag: z.string(),
  name: z.string(),
  /** The installed file's Unix mode, as a number (0o755 is 493). */
  mode: z.number(),
  upstream: z.string(),
  platforms: z.array(catalogPlatformViewSchema),
});
export type CatalogArtifactView = z.infer<typeof catalogArtifactViewSchema>;

export const catalogVersionViewSchema = z.object({
  version: z.string(),
  upstream: z.string(),
  notes: z.string().nullable(),
  artifacts: z.array(catalogArtifactViewSchema),
  /** Per architecture: can a bundle carry this version (every artifact available)? */
  bundleable: z.record(z.string(), z.boolean()),
  upgrade: z
    .object({
      from: z.array(z.string()),
      stateful: z.boolean(),
      migrations: z.array(z.object({ name: z.string(), irreversible: z.boolean() })),
      rollback: rollbackPossibilitySchema,
    })
    .nullable(),
});
export type CatalogVersionView = z.infer<typeof catalogVersionViewSchema>;

export const catalogServiceSummarySchema = z.object({
  ...catalogServiceFields,
  supports_tls: z.boolean(),
  ports: z.record(z.string(), z.object({ port: z.number(), protocol: z.string(), description: z.string(), tls: z.boolean() })),
  /** Minimums per instance, as Kubernetes quantities. */
  resources: z.object({ min_cpu: z.string(), min_memory: z.string(), min_disk: z.string().optional() }),
  /** The kind of each check. */
  checks: z.object({ liveness: z.string(), readiness: z.string(), functional: z.string() }),
  backup: z.boolean(),
  versions: z.array(catalogVersionViewSchema),
});
export type CatalogServiceSummary = z.infer<typeof catalogServiceSummarySchema>;

/** A problem of an invalid catalog: the file, the path in it, its line and the reason. */
export const catalogProblemSchema = z.object({
  file: z.string(),
  /** e.g. versions[0].artifacts[1].platforms.amd64.digest; empty for the whole file. */
  path: z.string(),
  line: z.number().nullable(),
  reason: z.string(),
});
export type CatalogProblem = z.infer<typeof catalogProblemSchema>;

export const catalogListSchema = z.discriminatedUnion('valid', [
  z.object({
    valid: z.literal(true),
    digest: z.string(),
    files: z.array(z.object({ file: z.string(), sha256: z.string() })),
    services: z.array(catalogServiceSummarySchema),
  }),
  z.object({ valid: z.literal(false), problems: z.array(catalogProblemSchema), services: z.tuple([]) }),
]);
export type CatalogList = z.infer<typeof catalogListSchema>;

/** One service: its whole descriptor (templates, preflight, checks, backup) and its versions resolved. */
export const catalogServiceDetailSchema = z.looseObject({
  service: z.string(),
  resolved_versions: z.array(catalogVersionViewSchema),
});
export type CatalogServiceDetail = z.infer<typeof catalogServiceDetailSchema>;

export const catalogRouteSchemas = {
  // An invalid catalog is answered with its problems (file, path, line, reason) rather than an error page.
  'GET /api/v1/catalog': { result: catalogListSchema },
  'GET /api/v1/catalog/:service': { result: catalogServiceDetailSchema },
} as const;

export type CatalogRoutes = RoutesOf<typeof catalogRouteSchemas>;
