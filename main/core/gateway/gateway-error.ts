// A gateway refusal: the HTTP status and the stable code the agent sees in the error body.
export class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
