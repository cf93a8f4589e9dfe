// Small OCI image layouts for bundle tests: one single-layer image per title, all under one tag, as
// agent/build-image.mjs lays out the agent image (title label, ref.name annotation).
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const sha = (b: Buffer): string => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** A one-layer OCI image layout per image (title → layer bytes), every image tagged `tag`. */
export function imageLayout(dir: string, images: Record<string, Buffer>, tag = '0.1.0'): string {
  mkdirSync(join(dir, 'blobs/sha256'), { recursive: true });
  const put = (b: Buffer): { digest: string; size: number } => {
    writeFileSync(join(dir, 'blobs/sha256', sha(b).slice(7)), b);
    return { digest: sha(b), size: b.length };
  };
  const manifests = Object.entries(images).map(([title, layer]) => {
    const config = put(
      Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', config: { Labels: { 'org.opencontainers.image.title': title } } })),
    );
    const l = put(layer);
    const manifest = put(
      Buffer.from(
        JSON.stringify({
          schemaVersion: 2,
          mediaType: 'application/vnd.oci.image.manifest.v1+json',
          config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config },
          layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar', ...l }],
        }),
      ),
    );
    return {
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      ...manifest,
      annotations: { 'org.opencontainers.image.ref.name': tag },
    };
  });
  writeFileSync(join(dir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  writeFileSync(join(dir, 'index.json'), JSON.stringify({ schemaVersion: 2, manifests }));
  return dir;
}
