// The internal mirror every artefact comes from (https only), with the CA that signs its certificate.
import { useEffect, useState, type FormEvent, type ReactElement } from 'react';
import { consoleSettingsStore, useConsoleSettings, useT } from '../../app/stores';
import { ErrorNotice, InfoNotice } from '../../components/ErrorNotice';

export function MirrorPanel(): ReactElement {
  const t = useT();
  const slot = useConsoleSettings((s) => s.mirror);
  const [url, setUrl] = useState('');
  const [ca, setCa] = useState('');
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    void consoleSettingsStore.getState().loadMirror();
  }, []);
  const value = slot.value;
  useEffect(() => {
    if (!value) return;
    setUrl(value.url ?? '');
    setCa(value.ca_pem ?? '');
  }, [value]);

  const onSubmit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setSaved(await consoleSettingsStore.getState().saveMirror({ url: url.trim(), ca_pem: ca.trim() ? ca : null }));
  };
  const fieldError = slot.save.error?.field;

  return (
    <section className="panel" aria-labelledby="mirror-title" data-testid="mirror-panel">
      <h2 id="mirror-title" className="panel-title">
        {t('mirror.title')}
      </h2>
      <p className="help">{t('mirror.help')}</p>
      {slot.error ? <ErrorNotice error={slot.error} testId="mirror-error" /> : null}
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate data-testid="mirror-form">
        <div className="field">
          <label htmlFor="mirror-url">{t('mirror.url')}</label>
          <input
            id="mirror-url"
            className="mono"
            value={url}
            onChange={(e) => {
              setUrl(e.target.value);
              setSaved(false);
            }}
            placeholder="https://mirror.internal:5000"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={fieldError === 'url' || undefined}
            data-testid="mirror-url"
          />
        </div>
        <div className="field">
          <label htmlFor="mirror-ca">
            {t('mirror.ca')} <span className="label-note">({t('common.optional')})</span>
          </label>
          <textarea
            id="mirror-ca"
            className="mono code-input"
            rows={6}
            value={ca}
            onChange={(e) => {
              setCa(e.target.value);
              setSaved(false);
            }}
            spellCheck={false}
            aria-invalid={fieldError === 'ca_pem' || undefined}
            data-testid="mirror-ca"
          />
        </div>
        {slot.save.error ? <ErrorNotice error={slot.save.error} testId="mirror-save-error" /> : null}
        {saved ? <InfoNotice testId="mirror-saved">{t('settings.saved')}</InfoNotice> : null}
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={slot.save.pending} data-testid="mirror-save">
            {slot.save.pending ? t('common.saving') : t('common.save')}
          </button>
        </div>
      </form>
    </section>
  );
}
