// The validated catalog: what plans, checks, upgrades, backups and the bundle builder read. Built only by
// catalog-loader.ts, so every instance has passed the schema and the cross-checks.
import { createHash } from 'node:crypto';
import { canonicalize } from '../../wire/canonical-json';
import { formatMirrorKey, repositoryOf, type MirrorKey } from './mirror-keys';
import type { CatalogArtifact, CatalogDescriptor, CatalogVersion } from './catalog-schema';
import type { CatalogArtifactSource, CatalogArtifactView, CatalogPlatformView } from '../../contract/catalog';
import type { UpgradeAnswer } from '../../contract/services';
import { compareVersions } from './catalog-cross-checks';

export type { CatalogArtifactSource as ArtifactSource, UpgradeAnswer };

/** A platform of an artifact as the API shows it: its digest, size and source, or why it is unavailable. */
export type ResolvedPlatform = CatalogPlatformView;

/** One artifact of one version, with its mirror key and where it lives in the mirror. */
export type ResolvedArtifact = CatalogArtifactView & { mirrorKey: MirrorKey };

export class Catalog {
  private readonly byName: Map<string, CatalogDescriptor>;
  /** sha256 over the canonical JSON of every descriptor: which catalog a bundle or a plan was made from. */
  readonly digest: string;

  constructor(
    descriptors: CatalogDescriptor[],
    readonly sources: { file: string; sha256: string }[],
  ) {
    const sorted = [...descriptors].sort((a, b) => a.service.localeCompare(b.service));
    this.byName = new Map(sorted.map((d) => [d.service, d]));
    this.digest = `sha256:${createHash('sha256').update(canonicalize(sorted)).digest('hex')}`;
  }

  get services(): CatalogDescriptor[] {
    return [...this.byName.values()];
  }

  service(name: string): CatalogDescriptor | undefined {
    return this.byName.get(name);
  }

  /** The services given, each after those it depends on (depends_on, the catalog being acyclic), else by name. */
  dependencyOrder(services: readonly string[]): string[] {
    const wanted = new Set(services);
    const out: string[] = [];
    const visit = (s: string): void => {
      if (out.includes(s)) return;
      for (const d of [...(this.byName.get(s)?.depends_on ?? [])].sort()) if (wanted.has(d)) visit(d);
      out.push(s);
    };
    for (const s of [...wanted].sort()) visit(s);
    return out;
  }

  version(service: string, version: string): CatalogVersion | undefined {
    return this.byName.get(service)?.versions.find((v) => v.version === version);
  }

  /** The artifacts of a version, keyed `<service>:<name>@<version>` and placed at `navin/<service>/<name>:<version>`. */
  artifacts(service: string, version: string): ResolvedArtifact[] {
    const v = this.version(service, version);
    if (!v) return [];
    return v.artifacts.map((a) => resolveArtifact(service, v, a));
  }

  /** Every artifact of every version. */
  allArtifacts(): ResolvedArtifact[] {
    return this.services.flatMap((d) => d.versions.flatMap((v) => v.artifacts.map((a) => resolveArtifact(d.service, v, a))));
  }

  /** A version can be bundled for an architecture only when each of its artifacts is available there. */
  bundleable(service: string, version: string, architecture: string): { ok: true } | { ok: false; reason: string } {
    const artifacts = this.artifacts(service, version);
    if (artifacts.length === 0) return { ok: false, reason: `${service} ${version} is not in the catalog` };
    for (const a of artifacts) {
      const p = a.platforms.find((x) => x.architecture === architecture);
      if (!p) return { ok: false, reason: `${a.key} has no ${architecture} build` };
      if (!p.available) return { ok: false, reason: `${a.key} (${architecture}) is unavailable: ${p.reason}` };
    }
    return { ok: true };
  }

  /** What the upgrade tab shows: may `from` go to `to`, and what it involves. */
  upgrade(service: string, from: string, to: string): UpgradeAnswer {
    const target = this.version(service, to);
    const problems: string[] = [];
    if (!this.service(service)) problems.push(`${service} is not in the catalog`);
    else if (!this.version(service, from)) problems.push(`${service} ${from} is not in the catalog`);
    if (!target) problems.push(`${service} ${to} is not in the catalog`);
    const u = target?.upgrade;
    if (target && !u) problems.push(`${service} ${to} declares no upgrade path`);
    if (u && !u.from.includes(from)) problems.push(`${service} ${to} upgrades from ${u.from.join(', ')}, not from ${from}`);
    if (target && compareVersions(from, to) >= 0) problems.push(`${to} is not newer than ${from}`);
    return {
      compatible: problems.length === 0,
      problems,
      from,
      to,
      stateful: u?.stateful ?? this.service(service)?.stateful ?? false,
      migrations: u?.migrations ?? [],
      irreversible: (u?.migrations ?? []).filter((m) => m.irreversible).map((m) => m.name),
      rollback: u?.rollback ?? null,
    };
  }
}

function resolveArtifact(service: string, v: CatalogVersion, a: CatalogArtifact): ResolvedArtifact {
  const mirrorKey = { service, name: a.name, version: v.version };
  return {
    key: formatMirrorKey(mirrorKey),
    mirrorKey,
    repository: repositoryOf(mirrorKey),
    tag: v.version,
    name: a.name,
    mode: parseInt(a.mode, 8),
    upstream: v.upstream,
    platforms: Object.entries(a.platforms).map(([architecture, p]): ResolvedPlatform =>
      p!.available
        ? { architecture, available: true, digest: p!.digest, size: p!.size, source: p!.source }
        : { architecture, available: false, reason: p!.reason },
    ),
  };
}
