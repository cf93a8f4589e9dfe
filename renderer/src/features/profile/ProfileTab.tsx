// The Profile tab: the cluster's install profile and each of its rules as evaluated now (blocked or compliant),
// changing the profile (administrators) and the FQDN and address (operators), the latest preflight run with
// "Run checks", and the backups.
import { useEffect, useState, type ReactElement } from 'react';
import { profileNames, type ProfileName } from '../../../../preload/api';
import { clusterApprovalsStore, profileStore, useFormat, useProfile, useSession, useT } from '../../app/stores';
import { selectCanWrite } from '../session/store';
import { Tone } from '../../components/Badges';
import { CheckList } from '../../components/CheckList';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ProfileRulesList } from '../../components/ProfileRules';
import { ApprovalPicker } from '../approvals/ApprovalPicker';
import { BackupsPanel } from './BackupsPanel';
import { ClusterEndpointForm } from './ClusterEndpointForm';
import { PreflightPanel } from './PreflightPanel';
import { Panel } from '../../components/Panel';
import { Loading } from '../../components/Loading';
import { Options } from '../../components/Options';

export function ProfileTab({ clusterId }: { clusterId: string }): ReactElement {
  useEffect(() => {
    void profileStore.getState().open(clusterId);
  }, [clusterId]);
  return (
    <div className="profile-tab" data-testid="profile-tab">
      <ProfilePanel />
      <PreflightPanel />
      <BackupsPanel />
    </div>
  );
}

export function ProfileStatusBadge({ status }: { status: 'compliant' | 'blocked' }): ReactElement {
  const t = useT();
  return (
    <span data-testid="profile-status" data-profile-status={status}>
      <Tone tone={status === 'compliant' ? 'ok' : 'bad'}>{t(`profile.status.${status}`)}</Tone>
    </span>
  );
}

function ProfilePanel(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const { view, status, error } = useProfile.fields('view', 'status', 'error');
  const isAdmin = useSession((s) => s.user?.role === 'admin');
  const canWrite = useSession(selectCanWrite);

  return (
    <Panel titleId="profile-title" title={t('profile.title')} testId="profile-panel" actions={<></>}>
      {error ? <ErrorNotice error={error} testId="profile-error" /> : null}
      {!view && status === 'loading' ? <Loading /> : null}
      {view ? (
        <>
          <div className="profile-head">
            <strong data-testid="profile-name" data-profile={view.profile}>
              {t(`profile.name.${view.profile}`)}
            </strong>
            <ProfileStatusBadge status={view.status} />
            <span className="muted">{t('profile.evaluatedAt', { when: fmt.dateTimeLong(view.evaluated_at) })}</span>
          </div>
          {view.status === 'blocked' ? <p className="help warn">{t('profile.blockedHelp')}</p> : null}
          {view.four_eyes ? (
            <p className="help" data-testid="four-eyes">
              {t('profile.fourEyes', { actions: view.four_eyes_actions.map((a) => a).join(', ') })}
            </p>
          ) : null}
          {isAdmin ? <ChangeProfile clusterId={view.cluster_id} current={view.profile} fourEyes={view.four_eyes} /> : null}
          <h3 className="panel-subtitle">{t('profile.rules')}</h3>
          <CheckList checks={view.rules} label={t('profile.rules')} testId="profile-rules" showCritical={false} />
          {canWrite ? <ClusterEndpointForm /> : null}
        </>
      ) : null}
    </Panel>
  );
}

/** Under a four-eyes profile, the change itself needs an approval: a configuration of the service "profile". */
export const PROFILE_SERVICE = 'profile';

function ChangeProfile({ clusterId, current, fourEyes }: { clusterId: string; current: ProfileName; fourEyes: boolean }): ReactElement {
  const t = useT();
  const change = useProfile((s) => s.change);
  const [choice, setChoice] = useState<ProfileName>(current);
  const [approvalId, setApprovalId] = useState('');
  useEffect(() => setChoice(current), [current]);
  useEffect(() => {
    if (fourEyes) void clusterApprovalsStore.getState().setFilter({ cluster_id: clusterId, state: 'approved' });
  }, [clusterId, fourEyes]);
  return (
    <form
      className="form form-inline"
      onSubmit={(e) => {
        e.preventDefault();
        if (!change.pending && choice !== current)
          void profileStore.getState().setProfile(choice, fourEyes && approvalId ? approvalId : undefined);
      }}
      data-testid="change-profile"
    >
      <div className="field field-inline">
        <label htmlFor="profile-choice">{t('profile.change')}</label>
        <select id="profile-choice" value={choice} onChange={(e) => setChoice(e.target.value as ProfileName)} data-testid="profile-choice">
          <Options values={profileNames} label={(p) => t(`profile.name.${p}`)} />
        </select>
        {fourEyes && choice !== current ? (
          <ApprovalPicker action="configuration" service={PROFILE_SERVICE} state={[approvalId, setApprovalId]} idSuffix="profile" />
        ) : null}
        <button type="submit" className="btn btn-sm" disabled={change.pending || choice === current} data-testid="profile-apply">
          {change.pending ? t('common.saving') : t('profile.apply')}
        </button>
      </div>
      {choice !== current ? (
        <ProfileRulesList
          profile={choice}
          label={t('profile.rulesOf', { profile: t(`profile.name.${choice}`) })}
          testId="profile-choice-rules"
        />
      ) : null}
      {change.error ? <ErrorNotice error={change.error} testId="profile-change-error" /> : null}
    </form>
  );
}
