// The internal mirror every artefact comes from (https only), with the CA that signs its certificate.
import { useEffect, useState, type FormEvent, type ReactElement } from 'react';
import { consoleSettingsStore, useConsoleSettings, useT } from '../../app/stores';
import { TextField } from '../../components/TextField';
import { SettingsForm } from './SettingsForm';

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
  const typed = (set: (v: string) => void) => (v: string) => {
    set(v);
    setSaved(false);
  };

  return (
    <SettingsForm name="mirror" words="mirror" slot={slot} saved={saved} onSubmit={(e) => void onSubmit(e)}>
      <TextField
        id="mirror-url"
        label={t('mirror.url')}
        code
        value={url}
        onChange={typed(setUrl)}
        placeholder="https://mirror.internal:5000"
        input={{ 'aria-invalid': fieldError === 'url' || undefined }}
      />
      <TextField
        id="mirror-ca"
        label={t('mirror.ca')}
        note="optional"
        rows={6}
        code
        value={ca}
        onChange={typed(setCa)}
        input={{ className: 'mono code-input', 'aria-invalid': fieldError === 'ca_pem' || undefined }}
      />
    </SettingsForm>
  );
}
