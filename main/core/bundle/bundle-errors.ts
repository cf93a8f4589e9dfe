// Why a bundle is refused, or cannot be built: one stable code each.
import { CoreError } from '../errors';

export type BundleErrorCode =
  /** The manifest's signature does not verify against the trusted release keys (or is not a bundle's). */
  | 'bundle_signature_invalid'
  /** An entry's bytes or size differ from what the signed manifest lists (or a source file from the catalog pin). */
  | 'digest_mismatch'
  /** The tar ends before every entry the signed manifest lists. */
  | 'bundle_truncated'
  /** Not a bundle: not a tar, no signed manifest first, an entry the manifest does not list. */
  | 'bundle_malformed'
  /** The build was asked for a service whose artifacts the catalog marks unavailable. */
  | 'artifact_unavailable'
  /** A declared source (Debian package version, path) is not what the build machine has. */
  | 'artifact_source_mismatch'
  /** An image folder given to the build is not a valid OCI image layout. */
  | 'image_layout_invalid'
  /** Another import is running in this manager. */
  | 'import_running'
  /** The signed manifest tags a repository or key that is not this catalog's (or an image the project does not ship). */
  | 'bundle_tag_not_allowed'
  /** The bundle is older than the one that set a tag it would move back (allowed only when asked). */
  | 'bundle_downgrade';

export class BundleError extends CoreError<BundleErrorCode> {
  override name = 'BundleError';
}
