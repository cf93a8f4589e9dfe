// The catalog a CLI command works on: a folder of descriptors given with --catalog, else the shipped one.
import { resolve } from 'node:path';
import type { Catalog } from '../core/catalog/catalog';
import { loadBuiltinCatalog } from '../core/catalog/catalog-builtin';
import { loadCatalogDir } from '../core/catalog/catalog-loader';

export function catalogOption(value: string | boolean | undefined): { catalog: Catalog; source: string } {
  if (typeof value === 'string' && value) return { catalog: loadCatalogDir(resolve(value)), source: resolve(value) };
  const builtin = loadBuiltinCatalog();
  if (!builtin.ok) throw builtin.error;
  return { catalog: builtin.catalog, source: 'the catalog shipped with this manager' };
}
