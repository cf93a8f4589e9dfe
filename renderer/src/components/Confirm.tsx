// A question before a disruptive step: what will happen, what else must be chosen (an approval), the button
// that does it (focused) and Cancel. Escape cancels.
import type { ReactElement, ReactNode } from 'react';
import { useT } from '../app/stores';
import { Icon } from './Icon';

export interface ConfirmProps {
  titleId: string;
  title: ReactNode;
  /** The warning icon and style of the title (a plain question has neither). */
  alert?: boolean;
  describedBy?: string;
  role?: 'alertdialog' | 'group';
  testId?: string;
  data?: Record<`data-${string}`, string | undefined>;
  confirm: { label: ReactNode; onClick: () => void; disabled?: boolean; testId?: string; tone?: 'danger' | 'primary' };
  onCancel: () => void;
  children?: ReactNode;
}

export function Confirm(p: ConfirmProps): ReactElement {
  const t = useT();
  return (
    <div
      className="confirm"
      role={p.role ?? 'alertdialog'}
      aria-labelledby={p.titleId}
      aria-describedby={p.describedBy}
      data-testid={p.testId}
      {...p.data}
      onKeyDown={(e) => {
        if (e.key === 'Escape') p.onCancel();
      }}
    >
      <p id={p.titleId} className={p.alert === false ? undefined : 'confirm-title'}>
        {p.alert === false ? null : <Icon name="alert" />}
        {p.title}
      </p>
      {p.children}
      <div className="form-actions">
        <button
          type="button"
          className={`btn btn-${p.confirm.tone ?? 'danger'} btn-sm`}
          autoFocus
          disabled={p.confirm.disabled}
          onClick={p.confirm.onClick}
          data-testid={p.confirm.testId}
        >
          {p.confirm.label}
        </button>
        <button type="button" className="btn btn-sm" onClick={p.onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </div>
  );
}
