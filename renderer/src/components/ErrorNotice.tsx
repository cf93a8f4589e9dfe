// An API error as operators need it: what happened, what to do, and the stable code to quote.
import { Fragment, type ReactElement, type ReactNode } from 'react';
import type { ApiError } from '../api/client';
import { isMessageKey, translateLoose, type Locale } from '../i18n';
import { useLocale, useT } from '../app/stores';
import { Icon } from './Icon';

/** Codes whose server message says more than our generic text (which field, which rule). */
const SHOW_SERVER_MESSAGE = new Set([
  'bad_request',
  'invalid_field',
  'conflict',
  'internal',
  'bad_response',
  'bridge_error',
  // The registration checks: the manager names the server, the network error or the missing permission.
  'kubeconfig_invalid',
  'kubeconfig_no_token',
  'api_unreachable',
  'tls_untrusted',
  'token_refused',
  'permission_missing',
  'api_version_unsupported',
  'api_error',
  'not_registered',
  // The mirror and bundles: the manager names the entry, the digest or the registry's answer.
  'mirror_unreachable',
  'mirror_tls_untrusted',
  'mirror_error',
  'digest_mismatch',
  'bundle_signature_invalid',
  'bundle_truncated',
  'bundle_malformed',
  'bundle_not_found',
  'catalog_invalid',
  // Services on hosts: the manager says why an upgrade, a rollback or a restore cannot be, and which limit applies.
  'upgrade_incompatible',
  'rollback_refused',
  'restore_unsupported',
  'backup_version_mismatch',
  'backup_unsupported',
  'backup_modified',
]);

/** Stands for the command in a hint until it is rendered as <code>. */
const COMMAND = 'navin-manager serve';
const COMMAND_MARK = '\u0000command\u0000';

export interface ErrorText {
  message: string;
  hint: string;
  serverMessage: string | null;
}

export function describeError(locale: Locale, error: ApiError): ErrorText {
  const messageKey = `error.${error.code}`;
  const hintKey = `error.${error.code}.hint`;
  const params = { command: COMMAND_MARK };
  if (isMessageKey(messageKey) && isMessageKey(hintKey)) {
    return {
      message: translateLoose(locale, messageKey, params).replaceAll(COMMAND_MARK, COMMAND),
      hint: translateLoose(locale, hintKey, params),
      serverMessage: SHOW_SERVER_MESSAGE.has(error.code) && error.message ? error.message : null,
    };
  }
  return {
    message: translateLoose(locale, 'error.unknown'),
    hint: translateLoose(locale, 'error.unknown.hint'),
    serverMessage: error.message || null,
  };
}

function HintNodes({ hint }: { hint: string }): ReactElement {
  const parts = hint.split(COMMAND_MARK);
  return (
    <>
      {parts.map((p, i) => (
        <Fragment key={i}>
          {i > 0 ? <code className="cmd">{COMMAND}</code> : null}
          {p}
        </Fragment>
      ))}
    </>
  );
}

export function ErrorNotice({ error, id, testId = 'error' }: { error: ApiError; id?: string; testId?: string }): ReactElement {
  const t = useT();
  const locale = useLocale();
  const text = describeError(locale, error);
  return (
    <div className="notice notice-error" role="alert" id={id} data-testid={testId} data-error-code={error.code}>
      <Icon name="alert" className="notice-icon" />
      <div className="notice-body">
        <p className="notice-title">{text.message}</p>
        <p className="notice-hint">
          <HintNodes hint={text.hint} />
        </p>
        {text.serverMessage ? <p className="notice-detail">{t('error.details', { message: text.serverMessage })}</p> : null}
        <p className="notice-meta">
          {t('error.code')} <code data-testid="error-code">{error.code}</code>
          {error.status > 0 ? <span className="notice-status">HTTP {error.status}</span> : null}
        </p>
      </div>
    </div>
  );
}

export function InfoNotice({ children, testId }: { children: ReactNode; testId?: string }): ReactElement {
  return (
    <div className="notice notice-info" role="status" data-testid={testId}>
      <Icon name="info" className="notice-icon" />
      <div className="notice-body">
        <p className="notice-title">{children}</p>
      </div>
    </div>
  );
}
