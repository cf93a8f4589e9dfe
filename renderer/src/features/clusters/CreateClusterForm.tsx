// New cluster: name, description, install profile (development unless chosen, each with its rules from the
// manager's catalog in one line), and the FQDN and address the DNS checks compare (optional). The name is
// checked as you type with the server's rule; the server's own refusal (invalid_field on 'name', name_taken)
// is shown on the field and with its code.
import { useEffect, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { MAX_CLUSTER_NAME, profileNames, type Cluster, type ClusterKind, type ProfileName } from '../../../../preload/api';
import { validateClusterName, type ClusterNameProblem } from '../../api/validation';
import { clustersStore, useClusters, useSession, useT } from '../../app/stores';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ProfileRulesList } from '../../components/ProfileRules';
import type { Translator } from '../../i18n';
import { TextField } from '../../components/TextField';
import { BusyButton } from '../../components/BusyButton';
import { EndpointFields } from '../../components/EndpointFields';
import { onEscape } from '../../lib/onEscape';

const NAME_PROBLEM = {
  required: 'clusters.name.required',
  uppercase: 'clusters.name.uppercase',
  invalid_chars: 'clusters.name.invalid_chars',
  edge: 'clusters.name.edge',
} as const;

function problemText(t: Translator, problem: ClusterNameProblem, name: string): string {
  return problem === 'too_long' ? t('clusters.name.too_long', { max: MAX_CLUSTER_NAME, length: name.length }) : t(NAME_PROBLEM[problem]);
}

export function CreateClusterForm({ onCancel, onCreated }: { onCancel: () => void; onCreated: (c: Cluster) => void }): ReactElement {
  const t = useT();
  const creation = useClusters((s) => s.creation);
  // Another profile than development gates operations and accounts: an admin's choice, as the manager enforces.
  const mayChooseProfile = useSession((s) => s.user?.role === 'admin');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [profile, setProfile] = useState<ProfileName>('development');
  const [kind, setKind] = useState<ClusterKind>('kubernetes');
  const [fqdn, setFqdn] = useState('');
  const [address, setAddress] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [submittedName, setSubmittedName] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    nameRef.current?.focus();
    return () => clustersStore.getState().clearCreationError();
  }, []);

  const problem = validateClusterName(name);
  const localMessage = problem && (name.length > 0 || submitted) ? problemText(t, problem, name) : null;
  const serverError = creation.error;
  const serverOnName =
    serverError !== null && submittedName === name && (serverError.field === 'name' || serverError.code === 'name_taken');
  const serverMessage = serverOnName
    ? serverError.code === 'name_taken'
      ? t('clusters.name.taken', { name })
      : serverError.message
    : null;
  const nameMessage = localMessage ?? serverMessage;

  const onSubmit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (creation.pending) return;
    setSubmitted(true);
    if (problem) {
      nameRef.current?.focus();
      return;
    }
    setSubmittedName(name);
    const desc = description.trim();
    const cluster = await clustersStore.getState().create({
      name,
      kind,
      profile,
      ...(desc ? { description: desc } : {}),
      ...(fqdn.trim() ? { fqdn: fqdn.trim() } : {}),
      ...(address.trim() ? { address: address.trim() } : {}),
    });
    // Created: the form closes and the cluster's page opens.
    if (cluster) onCreated(cluster);
    else nameRef.current?.focus();
  };

  const onNameChange = (value: string): void => {
    setName(value);
    if (creation.error) clustersStore.getState().clearCreationError();
  };

  return (
    <form
      className="panel create-form"
      aria-labelledby="create-cluster-title"
      onSubmit={(e) => void onSubmit(e)}
      onKeyDown={onEscape(onCancel)}
      noValidate
      data-testid="create-cluster-form"
    >
      <h2 id="create-cluster-title" className="panel-title">
        {t('clusters.create.title')}
      </h2>
      <div className="form-grid">
        <TextField
          id="cluster-name"
          label={t('clusters.create.name')}
          note="required"
          hint={t('clusters.create.nameHelp', { max: MAX_CLUSTER_NAME })}
          error={nameMessage}
          code
          inputRef={nameRef}
          value={name}
          onChange={onNameChange}
          placeholder="edge-paris-1"
          input={{ name: 'name', autoCapitalize: 'none', 'aria-required': 'true' }}
        />
        <TextField
          id="cluster-description"
          label={t('clusters.create.description')}
          note="optional"
          hint={t('clusters.create.descriptionHelp')}
          value={description}
          onChange={setDescription}
          input={{ name: 'description', autoComplete: 'off' }}
        />
        <fieldset className="field kind-choice" data-testid="cluster-kind-choice">
          <legend>{t('clusters.create.kind')}</legend>
          {(['kubernetes', 'hosts'] as const).map((k) => (
            <label key={k} className="radio-option">
              <input type="radio" name="kind" value={k} checked={kind === k} onChange={() => setKind(k)} data-testid={`kind-${k}`} />
              <span className="radio-body">
                <strong className="radio-title">{t(`clusters.kind.${k}`)}</strong>
                <span className="help">{t(`clusters.kind.${k}.help`)}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <fieldset className="field profile-choice" data-testid="cluster-profile-choice">
          <legend>{t('clusters.create.profile')}</legend>
          {mayChooseProfile ? null : (
            <p className="help" data-testid="profile-admin-only">
              {t('clusters.create.profileAdminOnly')}
            </p>
          )}
          {profileNames.map((p) => (
            <label key={p} className="radio-option">
              <input
                type="radio"
                name="profile"
                value={p}
                checked={profile === p}
                disabled={!mayChooseProfile && p !== 'development'}
                onChange={() => setProfile(p)}
                data-testid={`profile-${p}`}
              />
              <span className="radio-body">
                <strong className="radio-title">{t(`profile.name.${p}`)}</strong>
                <ProfileRulesList
                  profile={p}
                  label={t('profile.rulesOf', { profile: t(`profile.name.${p}`) })}
                  testId={`profile-rules-${p}`}
                />
              </span>
            </label>
          ))}
        </fieldset>
        <EndpointFields
          idPrefix="cluster"
          values={{ fqdn, address }}
          onChange={(field, value) => (field === 'fqdn' ? setFqdn : setAddress)(value)}
          invalid={(field) => serverError?.field === field}
        />
      </div>
      {serverError ? <ErrorNotice error={serverError} testId="create-cluster-error" /> : null}
      <div className="form-actions">
        <BusyButton submit busy={creation.pending} text={['clusters.create.submit', 'clusters.create.submitting']} />
        <button type="button" className="btn" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
