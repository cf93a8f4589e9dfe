// The shape every settings panel shares: a titled panel with its help, the error of loading the setting,
// then a form whose save shows its error or "Saved". Test ids derive from `name` (`<name>-panel`,
// `<name>-form`, `<name>-save`, …), the same for every setting.
import type { FormEvent, ReactElement, ReactNode } from 'react';
import type { ApiError } from '../../api/client';
import { useT } from '../../app/stores';
import { ErrorNotice, InfoNotice } from '../../components/ErrorNotice';
import { Panel } from '../../components/Panel';

/** The words of a setting: `<words>.title` and `<words>.help` in the dictionaries. */
type SettingWords = 'dns' | 'mirror' | 'syslog' | 'endpointTrust';

export interface SettingsFormProps {
  name: string;
  words: SettingWords;
  /** The setting's slot of the console settings store: its load error and its save. */
  slot: { error: ApiError | null; save: { pending: boolean; error: ApiError | null } };
  /** Where the caller shows the save's error on a field, the error left for the form (null: none). */
  saveError?: ApiError | null;
  saved?: boolean;
  onSubmit: (e: FormEvent) => void;
  /** Shown between the help and the form (the current value). */
  summary?: ReactNode;
  /** Buttons after Save; `actions={false}`: no buttons at all (a reader without the right to change it). */
  actions?: ReactNode | false;
  /** Shown after the form (a test result, the forwarder's state). */
  after?: ReactNode;
  children: ReactNode;
}

export function SettingsForm(p: SettingsFormProps): ReactElement {
  const t = useT();
  const saveError = p.saveError === undefined ? p.slot.save.error : p.saveError;
  return (
    <Panel titleId={`${p.name}-title`} title={t(`${p.words}.title`)} testId={`${p.name}-panel`}>
      <p className="help">{t(`${p.words}.help`)}</p>
      {p.slot.error ? <ErrorNotice error={p.slot.error} testId={`${p.name}-error`} /> : null}
      {p.summary}
      <form className="form" onSubmit={p.onSubmit} noValidate data-testid={`${p.name}-form`}>
        {p.children}
        {saveError ? <ErrorNotice error={saveError} testId={`${p.name}-save-error`} /> : null}
        {p.saved ? <InfoNotice testId={`${p.name}-saved`}>{t('settings.saved')}</InfoNotice> : null}
        {p.actions === false ? null : (
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={p.slot.save.pending} data-testid={`${p.name}-save`}>
              {p.slot.save.pending ? t('common.saving') : t('common.save')}
            </button>
            {p.actions}
          </div>
        )}
      </form>
      {p.after}
    </Panel>
  );
}
