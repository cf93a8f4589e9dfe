// Digests as the OCI distribution API names them, and the check that bytes read are the ones a digest names.
import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { MirrorError } from './mirror-errors';

const DIGEST = /^sha256:[a-f0-9]{64}$/;

export const sha256Digest = (data: Uint8Array): string => `sha256:${createHash('sha256').update(data).digest('hex')}`;
export const isDigest = (s: string): boolean => DIGEST.test(s);

/** A pass-through that hashes and counts, and fails at the end when the bytes are not the expected ones. */
export class DigestVerifier extends Transform {
  private readonly hash: Hash = createHash('sha256');
  private bytes = 0;

  constructor(
    private readonly expected: string,
    private readonly expectedSize: number | null,
    private readonly what: string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    if (this.expectedSize !== null && this.bytes > this.expectedSize)
      return done(
        new MirrorError('digest_mismatch', `${this.what}: more than the ${this.expectedSize} bytes expected`, { expected: this.expected }),
      );
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    const actual = `sha256:${this.hash.digest('hex')}`;
    if (actual !== this.expected || (this.expectedSize !== null && this.bytes !== this.expectedSize))
      return done(
        new MirrorError('digest_mismatch', `${this.what}: the bytes read hash to ${actual} (${this.bytes} bytes), not ${this.expected}`, {
          expected: this.expected,
          actual,
          size: this.bytes,
        }),
      );
    done();
  }
}
