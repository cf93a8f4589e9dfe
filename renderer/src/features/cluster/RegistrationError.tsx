// Why a registration failed, in words, with what to do (each check of the manager has its code), and the
// missing permission when the manager names it.
import { useEffect, useRef, type ReactElement } from 'react';
import type { ApiError } from '../../api/client';
import { useT } from '../../app/stores';
import { ErrorNotice } from '../../components/ErrorNotice';

interface Permission {
  verb?: string;
  group?: string;
  resource?: string;
  namespace?: string;
  name?: string;
}

function permissionOf(details: unknown): Permission | null {
  if (typeof details !== 'object' || details === null) return null;
  const p = (details as { permission?: unknown }).permission;
  return typeof p === 'object' && p !== null ? (p as Permission) : null;
}

export function RegistrationError({ error }: { error: ApiError }): ReactElement {
  const t = useT();
  const permission = error.code === 'permission_missing' ? permissionOf(error.details) : null;
  const ref = useRef<HTMLDivElement>(null);
  // The answer comes below the form: bring it into view.
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [error]);
  return (
    <div ref={ref} className="registration-error" data-testid="registration-error" data-error-code={error.code}>
      <ErrorNotice error={error} testId="registration-error-notice" />
      {permission ? (
        <p className="help" data-testid="missing-permission">
          {t(permission.namespace ? 'import.permission.namespaced' : 'import.permission.cluster', {
            verb: permission.verb ?? '',
            resource: `${permission.resource ?? ''}${permission.group ? `.${permission.group}` : ''}${permission.name ? ` ${permission.name}` : ''}`,
            namespace: permission.namespace ?? '',
          })}
        </p>
      ) : null}
    </div>
  );
}
