// An image reference as the manifests accept it: pinned by digest, never by tag alone.
import { ValidationError } from '../errors';

export const IMAGE_BY_DIGEST =
  /^[a-z0-9]+([._-][a-z0-9]+)*(:[0-9]+)?(\/[a-z0-9]+([._-][a-z0-9]+)*)*(:[\w][\w.-]{0,127})?@sha256:[a-f0-9]{64}$/;

export function checkImage(image: unknown): string {
  if (typeof image !== 'string' || image.length === 0)
    throw new ValidationError('image', 'image is required: <registry>/<name>@sha256:<64 hex digits>');
  if (!image.includes('@sha256:'))
    throw new ValidationError('image', `the image must be pinned by digest (<name>@sha256:<digest>), not by tag: ${image}`);
  if (!IMAGE_BY_DIGEST.test(image)) throw new ValidationError('image', `not a valid image reference pinned by digest: ${image}`);
  return image;
}
