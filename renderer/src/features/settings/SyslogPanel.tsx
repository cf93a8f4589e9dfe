// Remote audit: the syslog target every audit row is also sent to (required by banking-secure), its test, and
// what the forwarder last reported.
import { useEffect, useState, type FormEvent, type ReactElement } from 'react';
import { syslogTargetSchema } from '../../../../preload/api';
import type { SyslogTransport } from '../../api/types';
import { consoleSettingsStore, useConsoleSettings, useT } from '../../app/stores';
import { Tone } from '../../components/Badges';
import { CodeBlock } from '../../components/CodeBlock';
import { Field } from '../../components/Field';
import { TextField } from '../../components/TextField';
import { SettingsForm } from './SettingsForm';
import { ErrorNotice } from '../../components/ErrorNotice';

export function SyslogPanel(): ReactElement {
  const t = useT();
  const { syslog: slot, syslogTest: test } = useConsoleSettings.fields('syslog', 'syslogTest');
  const [host, setHost] = useState('');
  const [port, setPort] = useState('514');
  const [transport, setTransport] = useState<SyslogTransport>('tcp');
  const [caPem, setCaPem] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    void consoleSettingsStore.getState().loadSyslog();
  }, []);
  const target = slot.value?.target ?? null;
  useEffect(() => {
    if (!target) return;
    setHost(target.host);
    setPort(String(target.port));
    setTransport(target.transport);
  }, [target]);
  const choose = (next: SyslogTransport): void => {
    setTransport(next);
    // The usual ports: 6514 for syslog over TLS, 514 otherwise.
    if (next === 'tls' && port === '514') setPort('6514');
    if (next !== 'tls' && port === '6514') setPort('514');
  };

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    const p = Number(port);
    if (!host.trim()) return setProblem(t('syslog.hostMissing'));
    if (!syslogTargetSchema.shape.port.safeParse(p).success) return setProblem(t('syslog.portInvalid'));
    setProblem(null);
    void consoleSettingsStore
      .getState()
      .saveSyslog({ host: host.trim(), port: p, transport, ...(transport === 'tls' && caPem.trim() ? { ca_pem: caPem.trim() } : {}) });
  };

  return (
    <SettingsForm
      name="syslog"
      words="syslog"
      slot={slot}
      onSubmit={onSubmit}
      summary={
        <p data-testid="syslog-current">
          {target
            ? t('syslog.current', { host: target.host, port: target.port, transport: target.transport.toUpperCase() })
            : t('syslog.none')}
        </p>
      }
      actions={
        <>
          <button
            type="button"
            className="btn"
            disabled={!target || test.pending}
            onClick={() => void consoleSettingsStore.getState().testSyslog()}
            data-testid="syslog-test"
          >
            {test.pending ? t('syslog.testing') : t('syslog.test')}
          </button>
          <button
            type="button"
            className="btn btn-danger-ghost"
            disabled={!target || slot.save.pending}
            onClick={() => void consoleSettingsStore.getState().clearSyslog()}
            data-testid="syslog-clear"
          >
            {t('syslog.clear')}
          </button>
        </>
      }
      after={
        <>
          {test.error ? <ErrorNotice error={test.error} testId="syslog-test-error" /> : null}
          {test.result ? (
            <p data-testid="syslog-test-result" data-reachable={test.result.reachable ? 'true' : 'false'}>
              <Tone tone={test.result.reachable ? 'ok' : 'bad'}>
                {test.result.reachable ? t('syslog.reachable') : t('syslog.unreachable')}
              </Tone>{' '}
              {test.result.message}
            </p>
          ) : null}
          {slot.value?.forwarder ? (
            <CodeBlock text={JSON.stringify(slot.value.forwarder, null, 2)} label={t('syslog.forwarder')} testId="syslog-forwarder" />
          ) : null}
        </>
      }
    >
      <div className="form-grid">
        <TextField id="syslog-host" label={t('syslog.host')} code value={host} onChange={setHost} />
        <TextField id="syslog-port" label={t('syslog.port')} value={port} onChange={setPort} input={{ inputMode: 'numeric' }} />
        <Field id="syslog-transport" label={t('syslog.transport')}>
          <select value={transport} onChange={(e) => choose(e.target.value as SyslogTransport)} data-testid="syslog-transport">
            <option value="tls">TLS (RFC 5425)</option>
            <option value="tcp">TCP</option>
            <option value="udp">UDP</option>
          </select>
        </Field>
      </div>
      {transport === 'tls' ? (
        <TextField
          id="syslog-ca"
          label={t('syslog.caPem')}
          note="optional"
          hint={t('syslog.caPemHint')}
          rows={4}
          code
          value={caPem}
          onChange={setCaPem}
          placeholder="-----BEGIN CERTIFICATE-----"
        />
      ) : null}
      <div aria-live="polite">{problem ? <p className="field-error">{problem}</p> : null}</div>
    </SettingsForm>
  );
}
