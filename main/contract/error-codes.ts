// Every error code of the manager with its HTTP status and default message, in one table (as fastify keeps its
// errors): a CoreError or an ApiError takes a code of this table only, so a new code without a status does not
// compile. The console API, the agent gateway and the CLI answer with these codes unchanged.
//
// Adding a code: one line here (snake_case, the status the API answers, a message saying what to do), then
// throw `new CoreError('the_code', 'a precise message')` from the core; the renderer's dictionaries give its
// words in English and French (`error.the_code`).

export interface ErrorCodeEntry {
  status: number;
  message: string;
}

export const ERROR_CODES = {
  // The request itself.
  bad_request: { status: 400, message: 'the request is not what this route takes' },
  invalid_json: { status: 400, message: 'the request body is not valid JSON' },
  invalid_field: { status: 400, message: 'a field of the request is missing or invalid' },
  body_too_large: { status: 413, message: 'the request body is too large' },
  rate_limited: { status: 429, message: 'too many requests; retry after the announced delay' },
  not_found: { status: 404, message: 'not found' },
  method_not_allowed: { status: 405, message: 'this method is not allowed here' },
  conflict: { status: 409, message: 'this conflicts with the current state' },
  name_taken: { status: 409, message: 'this name is already taken' },
  internal: { status: 500, message: 'internal error; the manager log has the details' },

  // Sessions, accounts and the second factor.
  unauthenticated: { status: 401, message: 'log in first (or send an API token as Authorization: Bearer)' },
  invalid_credentials: { status: 401, message: 'wrong user name or password' },
  account_locked: { status: 423, message: 'this account is locked for a while after failed logins' },
  token_expired: { status: 401, message: 'this API token has expired; create a new one' },
  token_revoked: { status: 401, message: 'this API token was revoked; create a new one' },
  setup_token_invalid: { status: 401, message: 'the setup token is not valid' },
  setup_done: { status: 409, message: 'the first admin exists already' },
  ticket_invalid: { status: 401, message: 'this login link is not valid (used, expired or unknown)' },
  forbidden: { status: 403, message: 'your role does not allow this' },
  csrf_missing: { status: 403, message: 'this request lacks the X-CSRF-Token header of your session; reload the console' },
  mfa_code_invalid: { status: 401, message: 'the code is not valid' },
  mfa_token_invalid: { status: 401, message: 'the sign-in step expired or is unknown; log in again' },
  mfa_enrollment_required: { status: 403, message: 'your role requires a second factor: enrol an authenticator app first' },
  mfa_already_enrolled: { status: 409, message: 'this account has a second factor already' },
  mfa_enrollment_missing: { status: 409, message: 'start the enrolment first' },

  // Keys and the data dir.
  key_active: { status: 409, message: 'the active signing key cannot be retired; rotate first' },
  no_signing_key: { status: 500, message: 'every signing key is retired; rotate to create a new one' },
  key_unseal_failed: { status: 500, message: 'a private key could not be decrypted with the master key' },
  master_key_unreadable: { status: 500, message: 'the master key file cannot be read' },
  master_key_weak: { status: 500, message: 'the master passphrase is too short' },
  master_key_exposed: { status: 500, message: 'the master key file must be readable by its owner only' },
  master_key_invalid: { status: 500, message: 'the master key file must hold exactly 32 bytes' },
  os_keystore_unavailable: { status: 500, message: 'the operating system key store is not available' },
  migration_failed: { status: 500, message: 'a migration of the store failed and was rolled back' },
  migration_list_invalid: { status: 500, message: 'the migrations of the store must be numbered 1, 2, 3 … each once' },

  // Clusters and the Kubernetes API (shared by registration, preflight, backups and the acceptance).
  kubeconfig_invalid: { status: 400, message: 'the kubeconfig is not usable' },
  kubeconfig_no_token: { status: 400, message: 'the kubeconfig holds no token' },
  not_registered: { status: 409, message: 'this cluster has no registered kubeconfig yet; register it first' },
  api_unreachable: { status: 502, message: 'the Kubernetes API server cannot be reached' },
  tls_untrusted: { status: 502, message: "the API server's certificate is not trusted" },
  token_refused: { status: 502, message: 'the API server refused the token' },
  permission_missing: { status: 422, message: 'the import identity lacks a permission' },
  api_version_unsupported: { status: 422, message: 'this Kubernetes version is not supported' },
  api_error: { status: 502, message: 'the API server answered with an error' },

  // The agent gateway.
  certificate_refused: { status: 403, message: 'this client certificate is unknown or revoked' },
  ca_rotation_in_progress: { status: 409, message: 'a rotation of the manager CA is under way; follow it until it is done' },

  // Service certificates: the CSRs the node agents send, and the ledger of issued certificates.
  csr_invalid: { status: 400, message: 'this is not a certificate signing request (PKCS#10, PEM)' },
  csr_signature_invalid: { status: 422, message: 'the certificate signing request is not signed by its own key' },
  csr_key_unsupported: { status: 422, message: 'the certificate signing request must carry an RSA key' },
  csr_key_too_weak: { status: 422, message: 'the key of the certificate signing request is too short: RSA 2048 bits at least' },
  certificate_revoked: { status: 409, message: 'this certificate is revoked already' },

  // The lifecycle gate: a blocked profile, a failed preflight, a missing or unusable approval.
  profile_blocked: { status: 409, message: 'the profile of this cluster is blocked' },
  preflight_failed: { status: 409, message: 'a preflight check failed' },
  approval_required: { status: 403, message: 'this operation needs a four-eyes approval' },
  approval_not_found: { status: 404, message: 'no such approval' },
  approval_self: { status: 403, message: 'nobody approves their own request' },
  approval_decided: { status: 409, message: 'this approval is decided already' },
  approval_not_approved: { status: 409, message: 'this approval is not approved' },
  approval_used: { status: 409, message: 'this approval was used already' },
  approval_expired: { status: 409, message: 'this approval expired' },
  approval_wrong_user: { status: 403, message: 'this approval belongs to another requester' },
  approval_wrong_target: { status: 409, message: 'this approval is for another action, service or cluster' },
  approval_needs_session: {
    status: 403,
    message: 'an approval is requested, decided and used by a person logged in to the console, not with an API token',
  },
  approval_mismatch: { status: 409, message: 'this approval approved another request (its digest differs)' },
  cluster_not_empty: { status: 409, message: 'this cluster still has services or components: uninstall them first' },
  token_owner_only: { status: 403, message: 'an API token is created by its own user only' },
  already_stopped: { status: 409, message: 'this component is stopped already' },
  not_stopped: { status: 409, message: 'this component is not stopped' },
  not_running: { status: 409, message: 'this component is not running' },
  rollback_unavailable: { status: 409, message: 'there is no earlier version to roll back to' },
  desired_state_changed: { status: 409, message: 'the desired state changed meanwhile; plan again' },
  backup_modified: { status: 409, message: 'a file of this backup set was modified or is missing' },
  backup_unsupported: { status: 409, message: 'the catalog declares no backup for this service (it keeps no data)' },
  backup_incomplete: { status: 502, message: 'the backup did not report the sha256 of every file it made' },
  backup_version_mismatch: {
    status: 409,
    message: 'a backup restores only into the version it was taken in; to go back below an upgrade, use its restore',
  },
  restore_unsupported: { status: 409, message: 'this restore is not possible here; the message states the limit' },

  // Hosts clusters and their node agents.
  cluster_kind_mismatch: { status: 409, message: 'this operation is for a cluster of the other kind (kubernetes or hosts)' },
  drift_report_only: { status: 409, message: 'this cluster is in report-only mode: drift is found, never rewritten' },
  upgrade_incompatible: { status: 409, message: 'this upgrade is not possible from the installed version' },
  rollback_refused: { status: 409, message: 'this service cannot be rolled back; the reason says why' },
  operation_running: { status: 409, message: 'an operation on this service is still running; wait for it to end' },
  service_installed: { status: 409, message: 'this service is installed already; change its configuration or uninstall it' },
  service_not_installed: { status: 404, message: 'this service is not installed on this cluster' },
  tls_already_enabled: { status: 409, message: 'this service serves TLS already' },
  tls_unsupported: { status: 409, message: 'this service does not support TLS' },
  raw_plan_refused: { status: 409, message: 'the profile of this cluster requires four eyes: send service operations, not a raw plan' },

  // Console settings.
  syslog_not_configured: { status: 409, message: 'no syslog target is set' },

  // The catalog, the mirror and offline bundles.
  catalog_invalid: { status: 500, message: 'a service descriptor of the catalog is invalid' },
  mirror_not_configured: { status: 409, message: 'no mirror is set; set its URL and CA first' },
  mirror_unreachable: { status: 502, message: 'the mirror cannot be reached' },
  mirror_tls_untrusted: { status: 502, message: "the mirror's certificate is not trusted" },
  mirror_auth_required: { status: 502, message: 'the mirror asks for credentials, which this manager does not send' },
  mirror_not_found: { status: 404, message: 'the mirror does not hold this artifact' },
  mirror_error: { status: 502, message: 'the mirror answered with an error' },
  digest_mismatch: { status: 422, message: 'the bytes do not match their digest' },
  bundle_signature_invalid: { status: 422, message: 'the bundle is not signed by a trusted release key' },
  bundle_truncated: { status: 422, message: 'the bundle is truncated' },
  bundle_malformed: { status: 422, message: 'the bundle is not a Navin offline bundle' },
  bundle_not_found: { status: 404, message: 'no bundle at this path' },
  import_running: { status: 409, message: 'an import is running already' },
  bundle_tag_not_allowed: { status: 422, message: "the bundle tags a repository that is not one of this catalog's keys" },
  bundle_downgrade: {
    status: 409,
    message: 'the bundle is older than the one that set its tags; import it with allow_downgrade to move them back',
  },
  import_path_not_allowed: { status: 403, message: 'over the network, a bundle is imported only from the imports folder of the data dir' },
  import_interrupted: { status: 409, message: 'this import was interrupted when its process ended' },
  artifact_unavailable: { status: 409, message: 'this artifact is not available here' },
  artifact_source_mismatch: { status: 409, message: "the artifact's source does not match the digest the catalog pins" },
  image_layout_invalid: { status: 400, message: 'this is not a valid OCI image layout' },
  release_key_invalid: { status: 400, message: 'this is not a usable release key' },
  release_key_exists: { status: 409, message: 'a release key file exists already at this path' },
  release_key_unseal_failed: { status: 400, message: 'the release key could not be decrypted with this passphrase' },
  release_key_trusted: { status: 409, message: 'this release key is trusted already' },
  release_key_is_manager_key: { status: 409, message: "a manager's own command key is never trusted as a release key" },
  passphrase_unreadable: { status: 400, message: 'the passphrase file cannot be read' },
  passphrase_weak: { status: 400, message: 'the passphrase is too short' },
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);

/**
 * The HTTP status of a code. An error that names a request field is that request's fault, whatever the code's
 * own status: a wrong TOTP code is 401 at login but 400 as the field of the enrolment form.
 */
export const statusOf = (code: ErrorCode, field?: string): number => (field !== undefined ? 400 : ERROR_CODES[code].status);
