// How a file artifact (a binary, a config bundle) becomes OCI content: per architecture, a manifest whose one
// layer is the file itself (so its digest is the catalog's pin) and a small config naming it; one index per
// version over the architectures. Canonical JSON and no timestamps: the same inputs give the same digests.
import { canonicalize } from '../../wire/canonical-json';
import type { MirrorKey } from '../catalog/mirror-keys';
import { formatMirrorKey } from '../catalog/mirror-keys';
import { ANNOTATION, NAVIN_ARTIFACT_CONFIG, NAVIN_ARTIFACT_FILE, NAVIN_ARTIFACT_TYPE, OCI_INDEX, OCI_MANIFEST } from './media-types';
import { sha256Digest, type Descriptor } from './oci-client';

export interface ArtifactFile {
  /** The file's name where it is installed (e.g. `etcd`). */
  name: string;
  digest: string;
  size: number;
  /** Unix mode, e.g. 0o755. */
  mode: number;
}

export interface ArtifactPlatformInput {
  architecture: string;
  os: string;
  file: ArtifactFile;
}

/** A blob of the OCI content; `body` for the small ones we generate (configs, manifests). */
export interface ContentBlob extends Descriptor {
  body?: Buffer;
}

export interface ArtifactContent {
  /** The index the version's tag points at. */
  index: ContentBlob & { body: Buffer };
  /** One manifest per architecture, in the order given. */
  manifests: (ContentBlob & { body: Buffer; platform: { architecture: string; os: string } })[];
  /** The configs and the files (the files without body: the caller streams them). */
  blobs: ContentBlob[];
}

const json = (value: unknown): Buffer => Buffer.from(canonicalize(value), 'utf8');

export function artifactContent(key: MirrorKey, upstreamVersion: string, platforms: ArtifactPlatformInput[]): ArtifactContent {
  const keyText = formatMirrorKey(key);
  const blobs: ContentBlob[] = [];
  const manifests: ArtifactContent['manifests'] = [];
  for (const p of platforms) {
    const config = json({
      key: keyText,
      service: key.service,
      name: key.name,
      version: key.version,
      upstream_version: upstreamVersion,
      architecture: p.architecture,
      os: p.os,
      file: { name: p.file.name, mode: `0${p.file.mode.toString(8)}`, digest: p.file.digest, size: p.file.size },
    });
    const configDesc: ContentBlob = { mediaType: NAVIN_ARTIFACT_CONFIG, digest: sha256Digest(config), size: config.length, body: config };
    const layer: Descriptor = {
      mediaType: NAVIN_ARTIFACT_FILE,
      digest: p.file.digest,
      size: p.file.size,
      annotations: { [ANNOTATION.title]: p.file.name, [ANNOTATION.fileMode]: `0${p.file.mode.toString(8)}` },
    };
    const manifest = json({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      artifactType: NAVIN_ARTIFACT_TYPE,
      config: { mediaType: configDesc.mediaType, digest: configDesc.digest, size: configDesc.size },
      layers: [layer],
      annotations: { [ANNOTATION.key]: keyText, [ANNOTATION.version]: key.version, [ANNOTATION.upstreamVersion]: upstreamVersion },
    });
    blobs.push(configDesc, { mediaType: layer.mediaType, digest: layer.digest, size: layer.size });
    manifests.push({
      mediaType: OCI_MANIFEST,
      digest: sha256Digest(manifest),
      size: manifest.length,
      body: manifest,
      platform: { architecture: p.architecture, os: p.os },
    });
  }
  const index = json({
    schemaVersion: 2,
    mediaType: OCI_INDEX,
    artifactType: NAVIN_ARTIFACT_TYPE,
    manifests: manifests.map((m) => ({ mediaType: m.mediaType, digest: m.digest, size: m.size, platform: m.platform })),
    annotations: { [ANNOTATION.key]: keyText, [ANNOTATION.version]: key.version, [ANNOTATION.upstreamVersion]: upstreamVersion },
  });
  return { index: { mediaType: OCI_INDEX, digest: sha256Digest(index), size: index.length, body: index }, manifests, blobs };
}
