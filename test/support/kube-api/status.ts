// metav1.Status errors with the reasons, codes, details and message shapes of the real kube-apiserver.

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: { name?: string; group?: string; kind?: string; uid?: string; causes?: StatusCause[]; retryAfterSeconds?: number };
  code: number;
}

export class StatusError extends Error {
  constructor(
    readonly status: Status,
    readonly headers: Record<string, string> = {},
  ) {
    super(status.message);
  }
}

export interface GroupResource {
  group: string;
  resource: string;
}

/** `leases.coordination.k8s.io`, or `configmaps` for the core group: schema.GroupResource.String(). */
export const qualified = (gr: GroupResource): string => (gr.group ? `${gr.resource}.${gr.group}` : gr.resource);

const failure = (code: number, reason: string, message: string, details?: Status['details']): StatusError =>
  new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  });

const grDetails = (gr: GroupResource, name: string): Status['details'] => ({
  name,
  ...(gr.group ? { group: gr.group } : {}),
  kind: gr.resource,
});

export const notFound = (gr: GroupResource, name: string): StatusError =>
  failure(404, 'NotFound', `${qualified(gr)} "${name}" not found`, grDetails(gr, name));

export const resourceNotFound = (): StatusError => failure(404, 'NotFound', 'the server could not find the requested resource', {});

export const alreadyExists = (gr: GroupResource, name: string): StatusError =>
  failure(409, 'AlreadyExists', `${qualified(gr)} "${name}" already exists`, grDetails(gr, name));

export const conflict = (
  gr: GroupResource,
  name: string,
  why = 'the object has been modified; please apply your changes to the latest version and try again',
): StatusError => failure(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(gr)} "${name}": ${why}`, grDetails(gr, name));

/** `gr` empty for non-resource requests: the message then starts with `forbidden:`. */
export const forbidden = (gr: GroupResource | undefined, name: string, why: string): StatusError => {
  if (!gr) return failure(403, 'Forbidden', `forbidden: ${why}`, {});
  const what = name ? `${qualified(gr)} "${name}"` : qualified(gr);
  return failure(403, 'Forbidden', `${what} is forbidden: ${why}`, grDetails(gr, name));
};

export const unauthorized = (): StatusError => failure(401, 'Unauthorized', 'Unauthorized');

export interface FieldError {
  type: 'Required' | 'Invalid' | 'NotSupported' | 'Forbidden' | 'Duplicate';
  field: string;
  /** The rejected value, for Invalid and NotSupported. */
  value?: unknown;
  /** Printed as is instead of the quoted value (Go's `0x0` for an unset resourceVersion). */
  rawValue?: string;
  detail?: string;
}

const causeReason: Record<FieldError['type'], string> = {
  Required: 'FieldValueRequired',
  Invalid: 'FieldValueInvalid',
  NotSupported: 'FieldValueNotSupported',
  Forbidden: 'FieldValueForbidden',
  Duplicate: 'FieldValueDuplicate',
};

const goValue = (v: unknown, raw?: string): string => raw ?? (typeof v === 'string' ? `"${v}"` : JSON.stringify(v));

/** field.Error.ErrorBody(): `Required value`, `Invalid value: "x": detail`... */
const errorBody = (e: FieldError): string => {
  switch (e.type) {
    case 'Required':
      return `Required value${e.detail ? `: ${e.detail}` : ''}`;
    case 'Forbidden':
      return `Forbidden${e.detail ? `: ${e.detail}` : ''}`;
    case 'NotSupported':
      return `Unsupported value: ${goValue(e.value)}${e.detail ? `: ${e.detail}` : ''}`;
    case 'Duplicate':
      return `Duplicate value: ${goValue(e.value)}`;
    default:
      return `Invalid value: ${goValue(e.value, e.rawValue)}${e.detail ? `: ${e.detail}` : ''}`;
  }
};

/** 422 `Kind.group "name" is invalid: field: ...`, one cause per field error. */
export const invalid = (gk: { group: string; kind: string }, name: string, errors: FieldError[]): StatusError => {
  const parts = errors.map((e) => `${e.field}: ${errorBody(e)}`);
  const summary = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  const kind = gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
  return failure(422, 'Invalid', `${kind} "${name}" is invalid: ${summary}`, {
    name,
    ...(gk.group ? { group: gk.group } : {}),
    kind: gk.kind,
    causes: errors.map((e) => ({ reason: causeReason[e.type], message: errorBody(e), field: e.field })),
  });
};

export const badRequest = (message: string): StatusError => failure(400, 'BadRequest', message);

export const unprocessable = (message: string): StatusError => failure(422, 'Invalid', message);

export const methodNotAllowed = (): StatusError =>
  failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});

export const unsupportedMediaType = (accepted: string[]): StatusError =>
  failure(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );

export const expired = (message: string): StatusError => failure(410, 'Expired', message);

/** The answers the fault hooks give: 429 like API Priority and Fairness, 500 and 503 like a failing server. */
export const injected = (code: number, retryAfterSeconds = 1): StatusError => {
  if (code === 429) {
    const { status } = failure(429, 'TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds });
    return new StatusError(status, { 'Retry-After': String(retryAfterSeconds) });
  }
  if (code === 503) return failure(503, 'ServiceUnavailable', 'the server is currently unable to handle the request', {});
  if (code === 500)
    return failure(500, 'InternalError', 'Internal error occurred: injected fault', { causes: [{ message: 'injected fault' }] });
  return failure(code, 'Unknown', `injected fault (HTTP ${code})`);
};

export const successStatus = (details: Status['details']): Omit<Status, 'code'> & { code?: number } => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Success',
  details,
});
