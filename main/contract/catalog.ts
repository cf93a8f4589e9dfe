// The service catalog, read only: a summary per service for the list, one service's whole descriptor with its
// versions resolved (each artifact's mirror key, placement, and whether a bundle can carry it).

/** Where the bundle builder takes a file from on the connected side. */
export interface CatalogArtifactSource {
  debian: { package: string; version: string; path: string };
}

export type CatalogPlatformView =
  | { architecture: string; available: true; digest: string; size: number; source: CatalogArtifactSource }
  | { architecture: string; available: false; reason: string };

export interface CatalogArtifactView {
  key: string;
  repository: string;
  tag: string;
  name: string;
  mode: number;
  upstream: string;
  platforms: CatalogPlatformView[];
}

export interface CatalogVersionView {
  version: string;
  upstream: string;
  notes: string | null;
  artifacts: CatalogArtifactView[];
  /** Per architecture: can a bundle carry this version (every artifact available)? */
  bundleable: Record<string, boolean>;
  upgrade: { from: string[]; stateful: boolean; migrations: { name: string; irreversible: boolean }[]; rollback: unknown } | null;
}

export interface CatalogServiceSummary {
  service: string;
  title: string;
  description: string;
  stateful: boolean;
  supports_tls: boolean;
  ports: Record<string, { port: number; protocol: string; description: string; tls: boolean }>;
  /** Minimums per instance, as Kubernetes quantities. */
  resources: { min_cpu: string; min_memory: string; min_disk?: string };
  checks: Record<'liveness' | 'readiness' | 'functional', string>;
  backup: boolean;
  versions: CatalogVersionView[];
}

/** A problem of an invalid catalog: the file, the path in it, its line and the reason. */
export interface CatalogProblem {
  file: string;
  /** e.g. versions[0].artifacts[1].platforms.amd64.digest; empty for the whole file. */
  path: string;
  line: number | null;
  reason: string;
}

export type CatalogList =
  | { valid: true; digest: string; files: { file: string; sha256: string }[]; services: CatalogServiceSummary[] }
  | { valid: false; problems: CatalogProblem[]; services: [] };

/** One service: its whole descriptor (templates, preflight, checks, backup) and its versions resolved. */
export interface CatalogServiceDetail {
  service: string;
  resolved_versions: CatalogVersionView[];
  [field: string]: unknown;
}

export interface CatalogRoutes {
  'GET /api/v1/catalog': { result: CatalogList };
  'GET /api/v1/catalog/:service': { result: CatalogServiceDetail };
}
