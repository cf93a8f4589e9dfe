// An image reference as the manifests accept it: pinned by digest, never by tag alone.
import { ValidationError } from '../errors';
import { IMAGE_BY_DIGEST } from '../../contract/kubernetes';

export { IMAGE_BY_DIGEST };

export function checkImage(image: unknown): string {
  if (typeof image !== 'string' || image.length === 0)
    throw new ValidationError('image', 'image is required: <registry>/<name>@sha256:<64 hex digits>');
  if (!image.includes('@sha256:'))
    throw new ValidationError('image', `the image must be pinned by digest (<name>@sha256:<digest>), not by tag: ${image}`);
  if (!IMAGE_BY_DIGEST.test(image)) throw new ValidationError('image', `not a valid image reference pinned by digest: ${image}`);
  return image;
}
