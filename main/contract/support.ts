// Support archives of hosts clusters: a preview of what goes in, the redacted tar.gz built on demand (its
// MANIFEST.json: every file with its sha256 and the replacements by kind), the archives kept, and one archive's
// bytes (base64, for the console to save as a file). Declared schema first: the core's preview and manifest are
// these types.
import { z } from './zod';
import type { RoutesOf } from './route';

export const SUPPORT_ARCHIVE_FORMAT = 'navin-support-archive/1';

/** What is redacted: `log` also has its IP addresses replaced (configs keep theirs, they are the topology). */
export const supportTextKinds = ['config', 'log', 'data'] as const;
export type SupportTextKind = (typeof supportTextKinds)[number];

/** The kinds of replacement MANIFEST.json counts. */
export const REDACTION_KINDS = [
  'private_key',
  'secret',
  'credential',
  'token',
  'email',
  'user_name',
  'card',
  'iban',
  'ip',
  'phone',
] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];

export const supportPreviewItemSchema = z.object({ path: z.string(), kind: z.enum(supportTextKinds), bytes: z.number() });
export type SupportPreviewItem = z.infer<typeof supportPreviewItemSchema>;

export const supportManifestFileSchema = supportPreviewItemSchema.extend({ sha256: z.string() });
export type SupportManifestFile = z.infer<typeof supportManifestFileSchema>;

/** A redactor that failed on a file (`structure`: the file could not be read as its format). */
export const redactionFailureSchema = z.object({
  kind: z.enum([...REDACTION_KINDS, 'structure']),
  file: z.string(),
  message: z.string(),
});
export type RedactionFailure = z.infer<typeof redactionFailureSchema>;

export const supportManifestSchema = z.object({
  format: z.literal(SUPPORT_ARCHIVE_FORMAT),
  created_at: z.string(),
  /** True only when every redactor ran on every file without failing. */
  redacted: z.boolean(),
  failures: z.array(redactionFailureSchema),
  replacements: z.record(z.enum(REDACTION_KINDS), z.number()),
  files: z.array(supportManifestFileSchema),
});
export type SupportManifestView = z.infer<typeof supportManifestSchema>;

export const supportArchiveCreatedSchema = z.object({
  id: z.string(),
  cluster_id: z.string(),
  bytes: z.number(),
  sha256: z.string(),
  created_at: z.string(),
  manifest: supportManifestSchema,
});
export type SupportArchiveCreated = z.infer<typeof supportArchiveCreatedSchema>;

export const supportArchiveListedSchema = z.object({ id: z.string(), bytes: z.number(), created_at: z.string() });
export type SupportArchiveListed = z.infer<typeof supportArchiveListedSchema>;

export const supportRouteSchemas = {
  'GET /api/v1/clusters/:id/support/preview': { result: z.object({ items: z.array(supportPreviewItemSchema) }) },
  'POST /api/v1/clusters/:id/support': { result: supportArchiveCreatedSchema, status: 201 },
  'GET /api/v1/clusters/:id/support': { result: z.object({ items: z.array(supportArchiveListedSchema) }) },
  'GET /api/v1/clusters/:id/support/:archive': {
    result: z.object({ id: z.string(), bytes: z.number(), content_base64: z.string() }),
  },
} as const;

export type SupportRoutes = RoutesOf<typeof supportRouteSchemas>;
