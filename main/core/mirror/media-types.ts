// The OCI media types the mirror stores, and ours for artifacts that are files rather than container images.

export const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const DOCKER_MANIFEST_LIST = 'application/vnd.docker.distribution.manifest.list.v2+json';
export const DOCKER_MANIFEST = 'application/vnd.docker.distribution.manifest.v2+json';
export const OCI_IMAGE_CONFIG = 'application/vnd.oci.image.config.v1+json';

/** The manifest kinds a registry may store; sent as Accept, or some registries answer 404 to a HEAD. */
export const MANIFEST_TYPES = [OCI_INDEX, OCI_MANIFEST, DOCKER_MANIFEST_LIST, DOCKER_MANIFEST] as const;
export const isIndexType = (t: string | null | undefined): boolean => t === OCI_INDEX || t === DOCKER_MANIFEST_LIST;

/** A Navin artifact: one file (a binary, a config bundle) as the single layer of an OCI manifest. */
export const NAVIN_ARTIFACT_TYPE = 'application/vnd.navin.artifact.v1';
export const NAVIN_ARTIFACT_CONFIG = 'application/vnd.navin.artifact.config.v1+json';
export const NAVIN_ARTIFACT_FILE = 'application/vnd.navin.artifact.file.v1';

/** Annotations every Navin artifact carries (the OCI pre-defined keys where one fits). */
export const ANNOTATION = {
  title: 'org.opencontainers.image.title',
  version: 'org.opencontainers.image.version',
  refName: 'org.opencontainers.image.ref.name',
  key: 'ai.navin.artifact.key',
  upstreamVersion: 'ai.navin.upstream.version',
  fileMode: 'ai.navin.file.mode',
} as const;
