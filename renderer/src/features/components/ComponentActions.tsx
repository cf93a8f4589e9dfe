// Stop, start, restart and rollback of one component, each confirmed first; under a four-eyes profile the
// confirmation asks for the approval the operation is launched with.
import { useEffect, useState, type ReactElement } from 'react';
import { componentActions, type ComponentAction } from '../../../../preload/api';
import { clusterApprovalsStore, clusterCommandsStore, componentsStore, profileStore, useProfile, useT } from '../../app/stores';
import { ActionButtons } from '../../components/ActionButtons';
import type { IconName } from '../../components/Icon';
import { ApprovalPicker } from '../approvals/ApprovalPicker';
import { Confirm } from '../../components/Confirm';

const NO_ACTIONS: readonly string[] = [];

/** Loads what the four-eyes operations of a cluster's tab need: the profile's flag, and this operator's approved
 * approvals of the cluster for the pickers. */
export function useFourEyesScope(clusterId: string): void {
  useEffect(() => {
    void profileStore.getState().bind(clusterId);
    void clusterApprovalsStore.getState().setFilter({ cluster_id: clusterId, state: 'approved' });
  }, [clusterId]);
}

/** The actions of the open cluster's profile that need a second person's approval (none without four-eyes). */
export function useFourEyesActions(clusterId: string): readonly string[] {
  return useProfile((s) => (s.clusterId === clusterId && s.view?.four_eyes ? s.view.four_eyes_actions : NO_ACTIONS));
}

const ICON: Record<ComponentAction, IconName> = { stop: 'alert', start: 'check', restart: 'refresh', rollback: 'back' };

export function ComponentActionButtons({ name, onPick }: { name: string; onPick: (action: ComponentAction) => void }): ReactElement {
  const t = useT();
  return (
    <ActionButtons
      actions={componentActions}
      icons={ICON}
      words={(action) => t(`approvals.action.${action}`)}
      label={(action) => t('components.actionName', { action, name })}
      testIdPrefix="component"
      onPick={onPick}
    />
  );
}

export function ActionConfirm({
  clusterId,
  name,
  action,
  onDone,
}: {
  clusterId: string;
  name: string;
  action: ComponentAction;
  onDone: () => void;
}): ReactElement {
  const t = useT();
  const fourEyes = useFourEyesActions(clusterId).includes(action);
  const [approvalId, setApprovalId] = useState('');
  const label = t(`approvals.action.${action}`);
  return (
    <Confirm
      titleId="action-confirm-title"
      title={t('components.actionConfirmTitle', { action: label, name })}
      testId="action-confirm"
      data={{ 'data-action': action }}
      onCancel={onDone}
      confirm={{
        label: t('components.actionConfirm', { action: label, name }),
        tone: 'primary',
        testId: 'action-confirm-button',
        onClick: () =>
          void componentsStore
            .getState()
            .runAction(name, action, approvalId || undefined)
            .then((command) => {
              if (command) clusterCommandsStore.getState().upsert(command);
              onDone();
            }),
      }}
    >
      {fourEyes ? (
        <p>
          <ApprovalPicker action={action} service={name} state={[approvalId, setApprovalId]} idSuffix="action" />
        </p>
      ) : null}
    </Confirm>
  );
}
