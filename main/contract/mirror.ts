// The internal mirror: what it holds per service and version, offline-bundle imports (a bundle file the
// operator picked on this workstation, followed live), and the release keys trusted to sign bundles.

export interface MirrorArtifactEntry {
  key: string;
  service: string;
  name: string;
  version: string;
  repository: string;
  digest: string;
  platforms: { architecture: string; manifest: string; file_digest: string; size: number }[];
  /** Against the catalog: pinned (every file is the catalog's pin), differs, or unknown (not in the catalog). */
  catalog: 'pinned' | 'differs' | 'unknown';
  problem?: string;
}

export interface MirrorImageEntry {
  repository: string;
  tag: string;
  digest: string;
  media_type: string;
  platforms: string[];
}

export interface MirrorInventory {
  mirror: string;
  artifacts: MirrorArtifactEntry[];
  images: MirrorImageEntry[];
}

export interface ImportProgress {
  phase: 'verifying' | 'uploading' | 'tagging' | 'done';
  bytes_done: number;
  bytes_total: number;
  blobs_done: number;
  blobs_total: number;
  tags_done: number;
  tags_total: number;
}

export interface ImportResult {
  bundle_id: string;
  key_id: string;
  created_at: string;
  bytes: number;
  blobs_uploaded: number;
  blobs_present: number;
  items: { kind: string; key: string; repository: string; tag: string; digest: string; reference: string }[];
  not_included: { key: string; architecture: string; reason: string }[];
}

export type MirrorImportState = 'running' | 'done' | 'refused' | 'failed';

export interface MirrorImportView {
  id: string;
  bundle_file: string;
  bundle_id: string | null;
  key_id: string | null;
  mirror_url: string;
  state: MirrorImportState;
  code: string | null;
  message: string | null;
  started_by: string;
  started_at: string;
  finished_at: string | null;
  result: ImportResult | null;
  /** While running: the latest progress. */
  progress: ImportProgress | null;
}

export interface TrustedReleaseKey {
  key_id: string;
  label: string;
  public_key_pem: string;
  added_at: string;
  added_by: string;
}

export interface MirrorImportRequest {
  /** The bundle file: over HTTPS, under `<data dir>/imports/` of the manager; from the desktop console, any file. */
  path: string;
  /** Let an older bundle move back tags a newer one set (audited). */
  allow_downgrade?: boolean;
}

export interface ReleaseKeyTrustRequest {
  public_key_pem: string;
  label?: string;
  /** The approved request's id, when a cluster in use has a profile that wants four eyes. */
  approval_id?: string;
}

export interface MirrorRoutes {
  'GET /api/v1/mirror': { result: MirrorInventory };
  'GET /api/v1/mirror/imports': { result: { items: MirrorImportView[] } };
  'GET /api/v1/mirror/imports/:id': { result: MirrorImportView };
  'POST /api/v1/mirror/imports': { body: MirrorImportRequest; result: MirrorImportView };
  'GET /api/v1/settings/release-keys': { result: { keys: TrustedReleaseKey[] } };
  'POST /api/v1/settings/release-keys': { body: ReleaseKeyTrustRequest; result: TrustedReleaseKey };
  'DELETE /api/v1/settings/release-keys/:key_id': { result: null };
}
