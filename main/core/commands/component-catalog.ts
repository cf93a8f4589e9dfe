// What the catalog knows of each platform service: the minimum CPU and memory one instance needs (the
// preflight capacity check) and whether its endpoints can serve TLS (the profiles' TLS rules).
import type { COMPONENTS } from './component-spec';

export interface CatalogEntry {
  minimum: { cpu: string; memory: string };
  supportsTls: boolean;
}

// Minimums from each project's documented small-deployment requirements, rounded up.
export const CATALOG: Record<(typeof COMPONENTS)[number], CatalogEntry> = {
  opa: { minimum: { cpu: '100m', memory: '128Mi' }, supportsTls: true },
  openfga: { minimum: { cpu: '250m', memory: '256Mi' }, supportsTls: true },
  etcd: { minimum: { cpu: '500m', memory: '512Mi' }, supportsTls: true },
  nats: { minimum: { cpu: '250m', memory: '256Mi' }, supportsTls: true },
  'node-exporter': { minimum: { cpu: '50m', memory: '64Mi' }, supportsTls: true },
};

export const catalogEntry = (component: string): CatalogEntry | undefined =>
  (CATALOG as Record<string, CatalogEntry | undefined>)[component];
