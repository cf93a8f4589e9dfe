// What the catalog says of each platform service for the Kubernetes checks: the minimum CPU and memory one
// instance needs (the preflight capacity check) and whether its endpoints can serve TLS (the profiles' TLS
// rules). Read from the shipped descriptors in resources/catalog (static data of the build).
import { loadBuiltinCatalog } from '../catalog/catalog-builtin';
import type { CatalogLoad } from '../catalog/catalog-loader';

export interface CatalogEntry {
  minimum: { cpu: string; memory: string };
  supportsTls: boolean;
}

let shipped: CatalogLoad | undefined;

export function catalogEntry(component: string): CatalogEntry | undefined {
  shipped ??= loadBuiltinCatalog();
  const d = shipped.ok ? shipped.catalog.service(component) : undefined;
  return d ? { minimum: { cpu: d.resources.min_cpu, memory: d.resources.min_memory }, supportsTls: d.supports_tls } : undefined;
}
