// The offline bundle: one tar that is also an OCI image layout (so `skopeo copy oci-archive:` can read it),
// led by `navin-bundle.json`, a signed document of type `bundle` listing every entry of the tar with its digest
// and size and every tag to push. The tar's order: navin-bundle.json, oci-layout, index.json, then the blobs.
import { z } from 'zod';

export const BUNDLE_MANIFEST = 'navin-bundle.json';
export const OCI_LAYOUT_FILE = 'oci-layout';
export const OCI_INDEX_FILE = 'index.json';
export const BLOB_PREFIX = 'blobs/sha256/';
export const BUNDLE_FORMAT = 'navin.bundle/v1';
/** A bundle manifest larger than this is not one of ours. */
export const MAX_BUNDLE_MANIFEST_BYTES = 8 << 20;

const DIGEST = z.string().regex(/^sha256:[a-f0-9]{64}$/);
const REPOSITORY = z.string().regex(/^[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*(\/[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*)*$/);
const TAG = z.string().regex(/^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$/);

const Manifest = z.strictObject({ digest: DIGEST, media_type: z.string().min(1), size: z.number().int().positive() });

/** One tag to push: its blobs, the manifests it refers to (children first), then itself by tag. */
const Item = z.strictObject({
  kind: z.enum(['artifact', 'image']),
  /** `<service>:<name>@<version>` for an artifact, `<name>@<tag>` for an image. */
  key: z.string().min(1),
  repository: REPOSITORY,
  tag: TAG,
  /** The manifest (or index) the tag points at. */
  digest: DIGEST,
  media_type: z.string().min(1),
  size: z.number().int().positive(),
  manifests: z.array(Manifest),
  blobs: z.array(DIGEST),
  /** For artifacts: each architecture's file and where the builder took it from. */
  files: z
    .array(
      z.strictObject({
        architecture: z.string(),
        name: z.string(),
        digest: DIGEST,
        size: z.number().int().nonnegative(),
        source: z.strictObject({ debian: z.strictObject({ package: z.string(), version: z.string(), path: z.string().optional() }) }),
      }),
    )
    .default([]),
});

export const BundleContents = z.strictObject({
  format: z.literal(BUNDLE_FORMAT),
  bundle_id: z.uuid(),
  created_at: z.iso.datetime(),
  builder: z.strictObject({ name: z.string(), version: z.string() }),
  catalog: z.strictObject({
    digest: DIGEST,
    files: z.array(z.strictObject({ file: z.string(), sha256: z.string().regex(/^[a-f0-9]{64}$/) })),
  }),
  architectures: z.array(z.string()).min(1),
  /** The two small files of the OCI layout, so nothing in the tar is unsigned. */
  layout: z.strictObject({ oci_layout: DIGEST, index_json: DIGEST }),
  /** Every blob entry of the tar, in tar order. */
  blobs: z.array(z.strictObject({ digest: DIGEST, size: z.number().int().nonnegative() })),
  items: z.array(Item).min(1),
  /** What the catalog names but this bundle does not carry, and why. */
  not_included: z.array(z.strictObject({ key: z.string(), architecture: z.string(), reason: z.string() })).default([]),
});

export type BundleContents = z.infer<typeof BundleContents>;
export type BundleItem = BundleContents['items'][number];

/** The tar entry name of a blob. */
export const blobEntry = (digest: string): string => `${BLOB_PREFIX}${digest.slice('sha256:'.length)}`;
