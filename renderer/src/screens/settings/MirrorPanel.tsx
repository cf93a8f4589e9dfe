// The internal mirror every artefact comes from (https only), with the CA that signs its certificate.
import { useEffect, useState, type FormEvent, type ReactElement } from 'react';
import { consoleSettingsStore, useConsoleSettings, useT } from '../../app/stores';
import { ErrorNotice, InfoNotice } from '../../components/ErrorNotice';
import { Field } from '../../components/Field';

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
        <Field id="mirror-url" label={t('mirror.url')}>
          <input
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
        </Field>
        <Field id="mirror-ca" label={t('mirror.ca')} note="optional">
          <textarea
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
        </Field>
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
