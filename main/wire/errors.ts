// The one error type the wire contract throws. Callers branch on `code`, which is part of the contract and
// never changes; the message is for humans and may.
export class WireError extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = 'WireError';
    this.code = code;
  }
}

/** True for a WireError, also across realms or duplicated bundles where `instanceof` would lie. */
export function isWireError(error: unknown): error is WireError {
  return (
    error instanceof WireError ||
    (error instanceof Error && error.name === 'WireError' && typeof (error as { code?: unknown }).code === 'string')
  );
}
