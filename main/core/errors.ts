// Errors of the core: each carries a stable code that the API and the CLI pass on unchanged.

export class CoreError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'CoreError';
  }
}

/** A request that cannot be carried out as given (maps to HTTP 400). */
export class ValidationError extends CoreError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super('invalid_field', message, { field });
    this.name = 'ValidationError';
  }
}

export class NotFoundError extends CoreError {
  constructor(what: string, id: string) {
    super('not_found', `${what} ${JSON.stringify(id)} not found`);
    this.name = 'NotFoundError';
  }
}

export class ConflictError extends CoreError {
  constructor(code: string, message: string) {
    super(code, message);
    this.name = 'ConflictError';
  }
}
