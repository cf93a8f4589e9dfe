// The approval a four-eyes operation of the open cluster is launched with: the operator's own approved, unused,
// unexpired approvals for this action on this service (the manager checks the same when the operation arrives),
// from the store of the open cluster's approvals (the cluster page's tabs scope it to the cluster).
import { useMemo, type ReactElement } from 'react';
import { useClusterApprovals, useFormat, useT } from '../../app/stores';
import { usableApprovals } from './store';
import { ItemOptions } from '../../components/Options';
import { APPROVABLE, type Approval } from '../../../../preload/api';

export function ApprovalPicker({
  action,
  service,
  state,
  idSuffix,
}: {
  action: string;
  service: string;
  /** The approval picked (its id, '' for none) and how to change it. */
  state: readonly [string, (id: string) => void];
  idSuffix: string;
}): ReactElement {
  const { items, filter } = useClusterApprovals.fields('items', 'filter');
  const clusterId = filter.cluster_id ?? '';
  const usable = useMemo(() => usableApprovals(items, clusterId, action, service), [items, clusterId, action, service]);
  return <ApprovalSelect action={action} usable={usable} state={state} idSuffix={idSuffix} />;
}

/** The select of an approval picker, given the approvals usable for the act. */
export function ApprovalSelect({
  action,
  usable,
  state: [value, onChange],
  idSuffix,
}: {
  action: string;
  usable: readonly Approval[];
  state: readonly [string, (id: string) => void];
  idSuffix: string;
}): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const id = `approval-${idSuffix}`;
  return (
    <span className="approval-picker field-inline">
      <label htmlFor={id}>{t('approvals.picker.label', { action: t(`approvals.action.${actionKey(action)}`) })}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} data-testid="approval-picker" data-action={action}>
        <option value="">{usable.length === 0 ? t('approvals.picker.none') : t('approvals.picker.choose')}</option>
        <ItemOptions
          items={usable}
          value={(a) => a.id}
          label={(a) =>
            t('approvals.picker.option', {
              id: a.id.slice(0, 8),
              by: a.decided_by_name ?? '–',
              expires: a.expires_at ? fmt.dateTime(a.expires_at) : '–',
            })
          }
        />
      </select>
    </span>
  );
}

// The approvable acts, and the operations whose words the picker also shows (started without an approval).
const KNOWN = [...APPROVABLE, 'start', 'install'] as const;
export type ActionKey = (typeof KNOWN)[number] | 'other';

/** The dictionary key of an action name (an unknown one is shown as "other"). */
export function actionKey(action: string): ActionKey {
  return (KNOWN as readonly string[]).includes(action) ? (action as ActionKey) : 'other';
}
