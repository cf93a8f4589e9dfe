// The catalog as the console API shows it: a summary per service for the list, the whole descriptor with each
// artifact's mirror key and placement for one service.
import type { CatalogServiceSummary, CatalogVersionView } from '../../contract/catalog';
import type { Catalog } from './catalog';
import type { CatalogDescriptor } from './catalog-schema';

export type { CatalogServiceSummary, CatalogVersionView };

function versionsOf(catalog: Catalog, d: CatalogDescriptor): CatalogVersionView[] {
  const arches = [...new Set(catalog.allArtifacts().flatMap((a) => a.platforms.map((p) => p.architecture)))].sort();
  return d.versions.map((v) => ({
    version: v.version,
    upstream: v.upstream,
    notes: v.notes ?? null,
    artifacts: catalog.artifacts(d.service, v.version).map(({ mirrorKey: _k, ...a }) => a),
    bundleable: Object.fromEntries(arches.map((a) => [a, catalog.bundleable(d.service, v.version, a).ok])),
    upgrade: v.upgrade
      ? {
          from: v.upgrade.from,
          stateful: v.upgrade.stateful,
          migrations: v.upgrade.migrations.map((m) => ({ name: m.name, irreversible: m.irreversible })),
          rollback: v.upgrade.rollback,
        }
      : null,
  }));
}

export function catalogSummary(catalog: Catalog): CatalogServiceSummary[] {
  return catalog.services.map((d) => ({
    service: d.service,
    title: d.title,
    description: d.description,
    stateful: d.stateful,
    supports_tls: d.supports_tls,
    ports: d.ports,
    resources: d.resources,
    checks: { liveness: d.checks.liveness.kind, readiness: d.checks.readiness.kind, functional: d.checks.functional.kind },
    backup: !!d.backup,
    versions: versionsOf(catalog, d),
  }));
}

/** One service: its whole descriptor (templates, preflight, checks, backup), versions resolved to mirror keys. */
export function catalogService(
  catalog: Catalog,
  name: string,
): (CatalogDescriptor & { resolved_versions: CatalogVersionView[] }) | undefined {
  const d = catalog.service(name);
  return d ? { ...d, resolved_versions: versionsOf(catalog, d) } : undefined;
}
