// The actions of an installed service: run its checks or its functional test, start, stop, restart and
// uninstall. Stop, restart and uninstall are confirmed first, and so is any action the four-eyes profile
// gates: the confirmation then asks for the approval the operation is launched with.
import { useState, type ReactElement } from 'react';
import type { ServiceAction } from '../../../../preload/api';
import { servicesStore, useT } from '../../app/stores';
import { Confirm } from '../../components/Confirm';
import { ActionButtons } from '../../components/ActionButtons';
import type { IconName } from '../../components/Icon';
import { SERVICE_ACTIONS } from './store';
import { ApprovalPicker } from '../approvals/ApprovalPicker';

const ICON: Record<ServiceAction, IconName> = {
  check: 'checks',
  functional_test: 'check',
  start: 'check',
  stop: 'alert',
  restart: 'refresh',
  uninstall: 'trash',
};

export function ServiceActionButtons({
  service,
  disabled,
  onPick,
}: {
  service: string;
  disabled: boolean;
  onPick: (action: ServiceAction) => void;
}): ReactElement {
  const t = useT();
  return (
    <ActionButtons
      actions={SERVICE_ACTIONS}
      icons={ICON}
      words={(action) => t(`services.action.${action}`)}
      label={(action) => t('services.actionName', { action, service })}
      testIdPrefix="service"
      danger={['uninstall']}
      disabled={disabled}
      onPick={onPick}
    />
  );
}

export function ServiceActionConfirm({
  service,
  action,
  fourEyes,
  onDone,
}: {
  service: string;
  action: ServiceAction;
  /** The profile requires an approval for this action. */
  fourEyes: boolean;
  onDone: (launched: boolean) => void;
}): ReactElement {
  const t = useT();
  const [approvalId, setApprovalId] = useState('');
  const label = t(`services.action.${action}`);
  return (
    <Confirm
      titleId="service-action-confirm-title"
      title={t('services.actionConfirmTitle', { action: label, service })}
      alert={action !== 'start' && action !== 'check' && action !== 'functional_test'}
      testId="service-action-confirm"
      data={{ 'data-action': action }}
      onCancel={() => onDone(false)}
      confirm={{
        label: t('services.actionName', { action: label, service }),
        tone: action === 'uninstall' ? 'danger' : 'primary',
        testId: 'service-action-confirm-button',
        onClick: () =>
          void servicesStore
            .getState()
            .runAction(service, action, approvalId || undefined)
            .then((op) => onDone(op !== null)),
      }}
    >
      <p className="help">{t(`services.actionEffect.${action}`)}</p>
      {fourEyes ? (
        <p>
          <ApprovalPicker action={action} service={service} state={[approvalId, setApprovalId]} idSuffix="service-action" />
        </p>
      ) : null}
    </Confirm>
  );
}
