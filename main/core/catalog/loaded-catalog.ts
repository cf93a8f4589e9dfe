// The catalog as the services read it: the one loaded at start, or null when it is invalid (what needs it says so).
import type { Catalog } from './catalog';
import type { CatalogLoad } from './catalog-loader';

export function loadedCatalog(load: CatalogLoad): () => Catalog | null {
  return () => (load.ok ? load.catalog : null);
}
