// The DNS servers the preflight checks resolve the clusters' FQDN and address with.
import { useEffect, useState, type FormEvent, type ReactElement } from 'react';
import { consoleSettingsStore, useConsoleSettings, useT } from '../../app/stores';
import { ErrorNotice, InfoNotice } from '../../components/ErrorNotice';
import { Field } from '../../components/Field';
import { parseServerList } from '../../stores/consoleSettings';

export function DnsPanel(): ReactElement {
  const t = useT();
  const slot = useConsoleSettings((s) => s.dns);
  const [text, setText] = useState('');
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    void consoleSettingsStore.getState().loadDns();
  }, []);
  const servers = slot.value?.servers;
  useEffect(() => {
    if (servers) setText(servers.join('\n'));
  }, [servers]);

  const onSubmit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setSaved(await consoleSettingsStore.getState().saveDns(parseServerList(text)));
  };

  return (
    <section className="panel" aria-labelledby="dns-title" data-testid="dns-panel">
      <h2 id="dns-title" className="panel-title">
        {t('dns.title')}
      </h2>
      <p className="help">{t('dns.help')}</p>
      {slot.error ? <ErrorNotice error={slot.error} testId="dns-error" /> : null}
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate data-testid="dns-form">
        <Field id="dns-servers" label={t('dns.servers')} hint={t('dns.serversHelp')}>
          <textarea
            className="mono"
            rows={4}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setSaved(false);
            }}
            spellCheck={false}
            data-testid="dns-servers"
          />
        </Field>
        {slot.save.error ? <ErrorNotice error={slot.save.error} testId="dns-save-error" /> : null}
        {saved ? <InfoNotice testId="dns-saved">{t('settings.saved')}</InfoNotice> : null}
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={slot.save.pending} data-testid="dns-save">
            {slot.save.pending ? t('common.saving') : t('common.save')}
          </button>
        </div>
      </form>
    </section>
  );
}
