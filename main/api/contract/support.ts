// Support archives of hosts clusters: a preview of what goes in, the redacted tar.gz built on demand (its
// MANIFEST.json: every file with its sha256 and the replacements by kind), the archives kept, and one archive's
// bytes (base64, for the console to save as a file).
export type SupportTextKind = 'config' | 'log' | 'data';

export interface SupportPreviewItem {
  path: string;
  kind: SupportTextKind;
  bytes: number;
}

export interface SupportManifestView {
  format: string;
  created_at: string;
  /** True only when every redactor ran on every file without failing. */
  redacted: boolean;
  failures: { kind: string; file: string; message: string }[];
  replacements: Record<string, number>;
  files: { path: string; kind: SupportTextKind; bytes: number; sha256: string }[];
}

export interface SupportArchiveCreated {
  id: string;
  cluster_id: string;
  bytes: number;
  sha256: string;
  created_at: string;
  manifest: SupportManifestView;
}

export interface SupportRoutes {
  'GET /api/v1/clusters/:id/support/preview': { result: { items: SupportPreviewItem[] } };
  'POST /api/v1/clusters/:id/support': { result: SupportArchiveCreated };
  'GET /api/v1/clusters/:id/support': { result: { items: { id: string; bytes: number; created_at: string }[] } };
  'GET /api/v1/clusters/:id/support/:archive': { result: { id: string; bytes: number; content_base64: string } };
}
