// The DNS servers the preflight checks resolve the clusters' FQDN and address with.
import { useEffect, useState, type FormEvent, type ReactElement } from 'react';
import { consoleSettingsStore, useConsoleSettings, useT } from '../../app/stores';
import { TextField } from '../../components/TextField';
import { parseServerList } from './store';
import { SettingsForm } from './SettingsForm';

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
    <SettingsForm name="dns" words="dns" slot={slot} saved={saved} onSubmit={(e) => void onSubmit(e)}>
      <TextField
        id="dns-servers"
        label={t('dns.servers')}
        hint={t('dns.serversHelp')}
        rows={4}
        code
        value={text}
        onChange={(v) => {
          setText(v);
          setSaved(false);
        }}
      />
    </SettingsForm>
  );
}
