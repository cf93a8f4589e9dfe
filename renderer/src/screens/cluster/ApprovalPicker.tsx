// The approval a four-eyes operation is launched with: the operator's own approved, unused, unexpired
// approvals for this action on this service (the manager checks the same when the operation arrives).
import { useMemo, type ReactElement } from 'react';
import { useClusterApprovals, useFormat, useT } from '../../app/stores';
import { usableApprovals } from '../../stores/approvals';

export function ApprovalPicker({
  clusterId,
  action,
  service,
  value,
  onChange,
  idSuffix,
}: {
  clusterId: string;
  action: string;
  service: string;
  value: string;
  onChange: (id: string) => void;
  idSuffix: string;
}): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const items = useClusterApprovals((s) => s.items);
  const usable = useMemo(() => usableApprovals(items, clusterId, action, service), [items, clusterId, action, service]);
  const id = `approval-${idSuffix}`;
  return (
    <span className="approval-picker field-inline">
      <label htmlFor={id}>{t('approvals.picker.label', { action: t(`approvals.action.${actionKey(action)}`) })}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} data-testid="approval-picker" data-action={action}>
        <option value="">{usable.length === 0 ? t('approvals.picker.none') : t('approvals.picker.choose')}</option>
        {usable.map((a) => (
          <option key={a.id} value={a.id}>
            {t('approvals.picker.option', {
              id: a.id.slice(0, 8),
              by: a.decided_by_name ?? '–',
              expires: a.expires_at ? fmt.dateTime(a.expires_at) : '–',
            })}
          </option>
        ))}
      </select>
    </span>
  );
}

const KNOWN = ['stop', 'restart', 'reinstall', 'uninstall', 'upgrade', 'rollback', 'restore', 'configuration', 'start', 'install'] as const;
export type ActionKey = (typeof KNOWN)[number] | 'other';

/** The dictionary key of an action name (an unknown one is shown as "other"). */
export function actionKey(action: string): ActionKey {
  return (KNOWN as readonly string[]).includes(action) ? (action as ActionKey) : 'other';
}
