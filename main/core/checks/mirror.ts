// The internal mirror and the install.offline_source.<name> lines: every artifact image of a component, pinned
// by digest, must resolve in the mirror configured in settings. Each one is a real HTTPS
// `HEAD /v2/<repository>/manifests/<digest>` made by the mirror's OCI client, trusting the mirror CA when one is set.
import { X509Certificate } from 'node:crypto';
import type { Clock } from '../clock';
import { ValidationError } from '../errors';
import { urlField } from '../net/url-field';
import type { MirrorSettings } from '../../contract/reports';
import { MirrorError } from '../mirror/mirror-errors';
import { OciClient } from '../mirror/oci-client';
import { TEXT } from './check-texts';
import { type Evidence, type ReportLine } from '../../contract/check-types';

export type { MirrorSettings };

export const MIRROR_TIMEOUT_MS = 10_000;

/** Checks PUT /api/v1/settings/mirror input: an https URL (an optional path is a repository prefix) and an optional CA PEM. */
export function checkMirrorSettings(input: Record<string, unknown>): MirrorSettings {
  const { url, ca_pem } = input;
  const u = urlField('url', url, 'https://mirror.internal:5000');
  if (u.protocol !== 'https:') throw new ValidationError('url', 'the mirror is reached over https:// only');
  if (u.username || u.password) throw new ValidationError('url', 'the mirror URL must not carry credentials');
  if (u.search || u.hash) throw new ValidationError('url', 'the mirror URL has no query or fragment');
  if (/\/v2(\/|$)/.test(u.pathname)) throw new ValidationError('url', 'give the mirror URL without /v2 (it is added for each request)');
  let ca: string | null = null;
  if (ca_pem !== undefined && ca_pem !== null && ca_pem !== '') {
    if (typeof ca_pem !== 'string' || !ca_pem.includes('-----BEGIN CERTIFICATE-----'))
      throw new ValidationError('ca_pem', 'ca_pem is the PEM text of the mirror CA certificate');
    try {
      new X509Certificate(ca_pem);
    } catch {
      throw new ValidationError('ca_pem', 'ca_pem is not a readable X.509 certificate');
    }
    ca = ca_pem;
  }
  return { url: `${u.origin}${u.pathname.replace(/\/+$/, '')}`, ca_pem: ca };
}

export interface ImageReference {
  image: string;
  /** The registry named in the reference (docker.io when none). */
  registry: string;
  repository: string;
  digest: string;
}

/** Splits `registry/path/name[:tag]@sha256:...` the way the distribution reference grammar does. */
export function parseImageReference(image: string): ImageReference | null {
  const at = image.lastIndexOf('@');
  if (at < 0) return null;
  const digest = image.slice(at + 1);
  if (!/^sha256:[a-f0-9]{64}$/.test(digest)) return null;
  let name = image.slice(0, at);
  const slash = name.lastIndexOf('/');
  const colon = name.lastIndexOf(':');
  if (colon > slash) name = name.slice(0, colon); // a tag beside the digest: the digest is what is pulled
  const parts = name.split('/');
  let registry = 'docker.io';
  if (parts.length > 1 && /[.:]|^localhost$/.test(parts[0]!)) registry = parts.shift()!;
  if (registry === 'docker.io' && parts.length === 1) parts.unshift('library');
  const repository = parts.join('/');
  if (!repository) return null;
  return { image, registry, repository, digest };
}

export interface ManifestLookup {
  image: string;
  /** The request made, e.g. `HEAD https://mirror/v2/navin/opa/manifests/sha256:...`. */
  request: string;
  http_status: number | null;
  content_digest: string | null;
  media_type: string | null;
  error: string | null;
  found: boolean;
}

/** One HEAD of a manifest by digest through the mirror client (it sends the manifest types as Accept). */
export async function headManifest(client: OciClient, ref: ImageReference): Promise<ManifestLookup> {
  const lookup: ManifestLookup = {
    image: ref.image,
    request: '',
    http_status: null,
    content_digest: null,
    media_type: null,
    error: null,
    found: false,
  };
  try {
    lookup.request = `HEAD ${new URL(`/v2/${client.repositoryPath(ref.repository)}/manifests/${ref.digest}`, client.endpoint.url).href}`;
    const head = await client.headManifest(ref.repository, ref.digest);
    if (!head) {
      lookup.http_status = 404;
      return lookup;
    }
    lookup.http_status = 200;
    lookup.content_digest = head.digest;
    lookup.media_type = head.mediaType;
    lookup.found = true;
  } catch (error) {
    if (!(error instanceof MirrorError)) throw error;
    const status = error.details?.http_status;
    lookup.http_status = typeof status === 'number' ? status : error.code === 'digest_mismatch' ? 200 : null;
    lookup.content_digest = typeof error.details?.actual === 'string' ? error.details.actual : null;
    lookup.error =
      error.code === 'mirror_auth_required'
        ? `the mirror refused the anonymous lookup (${status})`
        : error.code === 'digest_mismatch'
          ? `the mirror answered with digest ${lookup.content_digest}, not ${ref.digest}`
          : error.message;
  }
  return lookup;
}

/** Each image looked up by digest in the mirror, side by side; an image not pinned by digest is not looked up. */
export async function lookupImages(
  mirror: { url: string; ca_pem: string | null },
  images: string[],
  timeoutMs = MIRROR_TIMEOUT_MS,
): Promise<ManifestLookup[]> {
  let client: OciClient;
  try {
    client = new OciClient(mirror, { timeoutMs, userAgent: 'navin-manager-acceptance' });
  } catch (error) {
    const message = (error as Error).message;
    return images.map((image) => ({
      image,
      request: '',
      http_status: null,
      content_digest: null,
      media_type: null,
      error: message,
      found: false,
    }));
  }
  try {
    return await Promise.all(
      images.map((image) => {
        const ref = parseImageReference(image);
        if (!ref)
          return Promise.resolve<ManifestLookup>({
            image,
            request: '',
            http_status: null,
            content_digest: null,
            media_type: null,
            error: 'the image is not pinned by a sha256 digest',
            found: false,
          });
        return headManifest(client, ref);
      }),
    );
  } finally {
    client.close();
  }
}

interface ArtifactSpec {
  artifacts?: { name?: unknown; image?: unknown }[];
}

export async function offlineSourceLines(
  desired: Record<string, unknown>,
  mirror: MirrorSettings,
  clock: Clock,
  timeoutMs = MIRROR_TIMEOUT_MS,
): Promise<ReportLine[]> {
  return Promise.all(
    Object.keys(desired)
      .sort()
      .map(async (name): Promise<ReportLine> => {
        const id = `install.offline_source.${name}`;
        const title = TEXT.offlineSourceTitle(name);
        const ran_at = clock.now().toISOString();
        const artifacts = ((desired[name] as ArtifactSpec | undefined)?.artifacts ?? []).filter((a) => a && typeof a.image === 'string');
        const evidence: Evidence = {
          method: 'HEAD /v2/<repository>/manifests/<digest> on the internal mirror for each artifact (OCI distribution API)',
          at: ran_at,
          mirror_url: mirror.url,
        };
        // Listed as declared only when not looked up; each lookup names its image otherwise.
        const declared = artifacts.map((a) => ({ name: a.name, image: a.image }));
        if (artifacts.length === 0) {
          evidence.artifacts = [];
          evidence.reason = TEXT.noArtifact;
          return { id, title, status: 'BLOCKED', evidence, ran_at };
        }
        if (!mirror.url) {
          evidence.artifacts = declared;
          evidence.reason = TEXT.noMirror;
          return { id, title, status: 'BLOCKED', evidence, ran_at };
        }
        const mirrorUrl = mirror.url;
        evidence.mirror_ca = mirror.ca_pem ? 'configured CA' : 'system trust store';
        const lookups = await lookupImages(
          { url: mirrorUrl, ca_pem: mirror.ca_pem },
          artifacts.map((a) => a.image as string),
          timeoutMs,
        );
        evidence.lookups = lookups.map((l, i) => ({ name: artifacts[i]!.name, ...l }));
        const missing = lookups.filter((l) => !l.found);
        if (missing.length === 0) {
          evidence.digests = lookups.map((l) => l.content_digest ?? parseImageReference(l.image)!.digest);
          return { id, title, status: 'PASS', evidence, ran_at };
        }
        evidence.missing = missing.map((l) => l.image);
        evidence.reason = TEXT.notResolved(
          missing.map((l) => ({ image: l.image, notFound: l.http_status === 404, problem: l.error ?? `HTTP ${l.http_status}` })),
        );
        return { id, title, status: 'FAIL', evidence, ran_at };
      }),
  );
}
