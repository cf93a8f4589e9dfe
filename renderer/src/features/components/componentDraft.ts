// The component form's draft: what the fields hold as typed, the spec they describe, and which field a problem
// (ours or the manager's) belongs to.
import type { ComponentKind } from '../../api/types';
import type { ComponentRow } from './store';

export interface ArtifactDraft {
  key: number;
  name: string;
  image: string;
}

export interface Draft {
  name: string;
  component: ComponentKind;
  version: string;
  replicas: string;
  artifacts: ArtifactDraft[];
  cpu: string;
  memory: string;
  config: Record<string, unknown> | undefined;
}

// React keys of artifact rows: a row keeps its key while rows above it are removed.
let artifactKey = 0;

export function emptyArtifact(): ArtifactDraft {
  return { key: ++artifactKey, name: '', image: '' };
}

export function draftOf(row: Pick<ComponentRow, 'name' | 'spec'> | null): Draft {
  const spec = row?.spec;
  return {
    name: row?.name ?? '',
    component: (spec?.component as ComponentKind | undefined) ?? 'opa',
    version: spec?.version ?? '',
    replicas: spec?.replicas !== undefined ? String(spec.replicas) : '',
    artifacts: (spec?.artifacts ?? []).map((a) => ({ key: ++artifactKey, name: a.name, image: a.image })),
    cpu: spec?.resources?.cpu ?? '',
    memory: spec?.resources?.memory ?? '',
    config: spec?.config,
  };
}

/** The spec the form describes (numbers parsed; empty optional fields left out). */
export function specOfDraft(d: Draft): unknown {
  const spec: Record<string, unknown> = { component: d.component, version: d.version.trim() };
  if (d.replicas.trim() !== '') spec.replicas = /^\d+$/.test(d.replicas.trim()) ? Number(d.replicas.trim()) : d.replicas.trim();
  if (d.artifacts.length > 0) spec.artifacts = d.artifacts.map((a) => ({ name: a.name.trim(), image: a.image.trim() }));
  const cpu = d.cpu.trim();
  const memory = d.memory.trim();
  if (cpu || memory) spec.resources = { ...(cpu ? { cpu } : {}), ...(memory ? { memory } : {}) };
  if (d.config && Object.keys(d.config).length > 0) spec.config = d.config;
  return spec;
}

/** Which form control a field of the manager's answer points to. */
export function controlOf(field: string | undefined): string | null {
  if (!field) return null;
  if (field === 'name') return 'name';
  const m = /^spec\.(component|version|replicas|resources|config)/.exec(field);
  if (m?.[1]) return m[1];
  const a = /^spec\.artifacts(?:\[(\d+)\])?/.exec(field);
  if (a) return a[1] !== undefined ? `artifact-${a[1]}` : 'artifacts';
  return null;
}
