// The CAs the console trusts for the TLS endpoints bound to the services (the customer's PKI), beside the
// manager CA: one PEM bundle, checked certificate by certificate by the manager; an empty bundle clears it.
import { useEffect, useState, type FormEvent, type ReactElement } from 'react';
import { consoleSettingsStore, useConsoleSettings, useFormat, useSession, useT } from '../../app/stores';
import { TextField } from '../../components/TextField';
import { FilePick } from '../../components/FilePick';
import { SettingsForm } from './SettingsForm';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----/g;

export function EndpointTrustPanel(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const slot = useConsoleSettings((s) => s.endpointTrust);
  const isAdmin = useSession((s) => s.user?.role === 'admin');
  const [pem, setPem] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    void consoleSettingsStore.getState().loadEndpointTrust();
  }, []);
  const current = slot.value?.ca_pem;
  useEffect(() => {
    if (current !== undefined) setPem(current);
  }, [current]);

  const save = async (text: string): Promise<void> => {
    setSaved(await consoleSettingsStore.getState().saveEndpointTrust(text));
  };
  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    void save(pem.trim() === '' ? '' : pem);
  };
  const saveError = slot.save.error;
  const onField = saveError?.code === 'invalid_field' && saveError.field === 'ca_pem';
  const count = current ? (current.match(PEM_CERTIFICATE) ?? []).length : 0;

  return (
    <SettingsForm
      name="endpoint-trust"
      words="endpointTrust"
      slot={slot}
      saveError={saveError && !onField ? saveError : null}
      saved={saved}
      onSubmit={onSubmit}
      summary={<p data-testid="endpoint-trust-count">{count > 0 ? fmt.plural('endpointTrust.count', count) : t('endpointTrust.none')}</p>}
      actions={
        isAdmin ? (
          <button
            type="button"
            className="btn btn-danger-ghost"
            disabled={!current || slot.save.pending}
            onClick={() => {
              setPem('');
              void save('');
            }}
            data-testid="endpoint-trust-clear"
          >
            {t('endpointTrust.clear')}
          </button>
        ) : (
          false
        )
      }
    >
      <TextField
        id="endpoint-trust-ca"
        label={t('endpointTrust.bundle')}
        labelAction={
          isAdmin ? (
            <FilePick
              label={t('import.pickFile')}
              accept=".pem,.crt,.cer"
              onFile={(f) => {
                setPem(f.text);
                setSaved(false);
                setNote(t('import.fileLoaded', { file: f.name }));
              }}
              onTooLarge={(name) => setNote(t('import.fileTooLarge', { file: name }))}
              testId="endpoint-trust-file"
            />
          ) : undefined
        }
        hint={t('endpointTrust.bundleHelp')}
        status={note}
        error={onField ? saveError.message : null}
        errorTestId="endpoint-trust-ca-error"
        rows={8}
        code
        value={pem}
        onChange={(v) => {
          setPem(v);
          setSaved(false);
          if (saveError) consoleSettingsStore.getState().clearEndpointTrustError();
        }}
        placeholder={'-----BEGIN CERTIFICATE-----\n…\n-----END CERTIFICATE-----'}
        input={{ className: 'mono code-input', readOnly: !isAdmin }}
        testId="endpoint-trust-ca"
      />
    </SettingsForm>
  );
}
