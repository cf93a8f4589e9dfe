// The internal mirror: what it holds per service and version, offline-bundle imports (a bundle file the
// operator picked on this workstation, followed live), and the release keys trusted to sign bundles. Declared
// schema first: the core's inventory, import and release-key views are these types.
import { failureFields } from './records';
import { z } from './zod';
import type { RoutesOf } from './route';

export const CATALOG_MATCHES = ['pinned', 'differs', 'unknown'] as const;

export const mirrorArtifactEntrySchema = z.object({
  key: z.string(),
  service: z.string(),
  name: z.string(),
  version: z.string(),
  repository: z.string(),
  digest: z.string(),
  platforms: z.array(z.object({ architecture: z.string(), manifest: z.string(), file_digest: z.string(), size: z.number() })),
  /** Against the catalog: pinned (every file is the catalog's pin), differs, or unknown (not in the catalog). */
  catalog: z.enum(CATALOG_MATCHES),
  /** Why the entry's files could not be read (a mirror error's code and message). */
  problem: z.string().optional(),
});
export type MirrorArtifactEntry = z.infer<typeof mirrorArtifactEntrySchema>;

export const mirrorImageEntrySchema = z.object({
  repository: z.string(),
  tag: z.string(),
  digest: z.string(),
  media_type: z.string(),
  /** `os/architecture` of each manifest of an index; none for a single manifest. */
  platforms: z.array(z.string()),
});
export type MirrorImageEntry = z.infer<typeof mirrorImageEntrySchema>;

export const mirrorInventorySchema = z.object({
  mirror: z.string(),
  artifacts: z.array(mirrorArtifactEntrySchema),
  images: z.array(mirrorImageEntrySchema),
});
export type MirrorInventory = z.infer<typeof mirrorInventorySchema>;

export const IMPORT_PHASES = ['verifying', 'uploading', 'tagging', 'done'] as const;

export const importProgressSchema = z.object({
  phase: z.enum(IMPORT_PHASES),
  bytes_done: z.number(),
  bytes_total: z.number(),
  blobs_done: z.number(),
  blobs_total: z.number(),
  tags_done: z.number(),
  tags_total: z.number(),
});
export type ImportProgress = z.infer<typeof importProgressSchema>;

export const importResultSchema = z.object({
  bundle_id: z.string(),
  key_id: z.string(),
  created_at: z.string(),
  bytes: z.number(),
  blobs_uploaded: z.number(),
  blobs_present: z.number(),
  items: z.array(
    z.object({ kind: z.string(), key: z.string(), repository: z.string(), tag: z.string(), digest: z.string(), reference: z.string() }),
  ),
  /** What the catalog names but the bundle does not carry, and why. */
  not_included: z.array(z.object({ key: z.string(), architecture: z.string(), reason: z.string() })),
});
export type ImportResult = z.infer<typeof importResultSchema>;

export const MIRROR_IMPORT_STATES = ['running', 'done', 'refused', 'failed'] as const;
export type MirrorImportState = (typeof MIRROR_IMPORT_STATES)[number];

export const mirrorImportViewSchema = z.object({
  id: z.string(),
  bundle_file: z.string(),
  bundle_id: z.string().nullable(),
  key_id: z.string().nullable(),
  mirror_url: z.string(),
  state: z.enum(MIRROR_IMPORT_STATES),
  ...failureFields,
  started_by: z.string(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  /** What was pushed (tags, digests, bytes), once done. */
  result: importResultSchema.nullable(),
  /** While running: the latest progress. */
  progress: importProgressSchema.nullable(),
});
export type MirrorImportView = z.infer<typeof mirrorImportViewSchema>;

export const trustedReleaseKeySchema = z.object({
  key_id: z.string(),
  label: z.string(),
  public_key_pem: z.string(),
  added_at: z.string(),
  added_by: z.string(),
});
export type TrustedReleaseKey = z.infer<typeof trustedReleaseKeySchema>;

/** Whether the path is absolute (the manager's Node side judges it) and readable is the core's to say. */
export const mirrorImportRequestSchema = z.object({
  /** The bundle file: over HTTPS, under `<data dir>/imports/` of the manager; from the desktop console, any file. */
  path: z.string({ error: 'path is the absolute path of the bundle file on this workstation' }),
  /** Let an older bundle move back tags a newer one set (audited). */
  allow_downgrade: z.boolean({ error: 'allow_downgrade is true or false' }).optional(),
});
export type MirrorImportRequest = z.infer<typeof mirrorImportRequestSchema>;

/** Whether the PEM is an Ed25519 public key (release_key_invalid) is the core's to say. */
export const releaseKeyTrustRequestSchema = z.object({
  public_key_pem: z.string({ error: 'public_key_pem is the PEM text of the release public key (Ed25519)' }),
  /** The key's name in the list; "release" when none. */
  label: z.string({ error: 'label is a text' }).nullish(),
  /** The approved request's id, when a cluster in use has a profile that wants four eyes. */
  approval_id: z.string({ error: 'approval_id is the id of an approved request' }).nullish(),
});
export type ReleaseKeyTrustRequest = z.input<typeof releaseKeyTrustRequestSchema>;

export const mirrorRouteSchemas = {
  'GET /api/v1/mirror': { result: mirrorInventorySchema },
  'GET /api/v1/mirror/imports': { result: z.object({ items: z.array(mirrorImportViewSchema) }) },
  'GET /api/v1/mirror/imports/:id': { result: mirrorImportViewSchema },
  'POST /api/v1/mirror/imports': { body: mirrorImportRequestSchema, result: mirrorImportViewSchema, status: 202 },
  'GET /api/v1/settings/release-keys': { result: z.object({ keys: z.array(trustedReleaseKeySchema) }) },
  'POST /api/v1/settings/release-keys': { body: releaseKeyTrustRequestSchema, result: trustedReleaseKeySchema, status: 201 },
  'DELETE /api/v1/settings/release-keys/:key_id': { result: z.null() },
} as const;

export type MirrorRoutes = RoutesOf<typeof mirrorRouteSchemas>;
