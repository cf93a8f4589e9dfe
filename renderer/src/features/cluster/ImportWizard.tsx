// Importing a Kubernetes cluster without SSH. Step 1: the least-privilege RBAC YAML of the navin-import identity
// (for the namespace chosen) to apply, and the command that makes its token. Step 2: the kubeconfig holding that
// token → registration, whose checks answer in words with what to do.
import { useEffect, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { clusterSetupStore, useClusterPage, useClusterSetup, useFormat, useT } from '../../app/stores';
import { DEFAULT_NAMESPACE } from '../../../../preload/api';
import { validateNamespace, type LabelProblem } from '../../api/validation';
import type { Translator } from '../../i18n';
import { MEDIA } from '../../lib/files';
import { clusterHash } from '../../stores/router';
import { CodeBlock, CommandLine } from '../../components/CodeBlock';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FilePick } from '../../components/FilePick';
import { Icon } from '../../components/Icon';
import { RegistrationError } from './RegistrationError';
import { TextField } from '../../components/TextField';
import { CodeTerm } from '../../components/Term';
import { WizardStep } from '../../components/WizardStep';
import { BusyButton } from '../../components/BusyButton';

const LABEL_PROBLEM = {
  required: 'validation.label.required',
  uppercase: 'clusters.name.uppercase',
  invalid_chars: 'validation.label.invalid_chars',
  edge: 'clusters.name.edge',
} as const;

export function labelProblemText(t: Translator, problem: LabelProblem): string {
  return problem === 'too_long' ? t('validation.label.too_long', { max: 63 }) : t(LABEL_PROBLEM[problem]);
}

export function ImportWizard({ clusterId }: { clusterId: string }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const cluster = useClusterPage((s) => s.cluster);
  const { rbac, registration } = useClusterSetup.fields('rbac', 'registration');
  const [namespace, setNamespace] = useState(() => clusterSetupStore.getState().rbac.key ?? DEFAULT_NAMESPACE);
  const [kubeconfig, setKubeconfig] = useState('');
  const [fileNote, setFileNote] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const problem = validateNamespace(namespace);
  const clusterName = cluster?.name ?? clusterId;

  // The YAML follows the namespace as it is typed (once valid), a moment after the last keystroke.
  useEffect(() => {
    if (problem) return;
    const current = clusterSetupStore.getState().rbac;
    if (current.key === namespace && current.status !== 'error') return;
    const timer = setTimeout(() => void clusterSetupStore.getState().loadRbac(namespace), 250);
    return () => clearTimeout(timer);
  }, [namespace, problem, clusterId]);

  const onRegister = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setSubmitted(true);
    if (problem || kubeconfig.trim() === '' || registration.pending) return;
    await clusterSetupStore.getState().register(kubeconfig, namespace);
  };

  const tokenCommand = `kubectl -n ${problem ? DEFAULT_NAMESPACE : namespace} create token navin-import`;
  const rbacFile = `navin-import-rbac-${clusterName}.yaml`;
  const result = registration.result;
  const resultRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (result) resultRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [result]);

  return (
    <div className="wizard" data-testid="import-wizard">
      <p className="wizard-intro">{t('import.intro')}</p>
      <ol className="steps">
        <WizardStep id="import-step1" number={1} title={t('import.step1.title')}>
          <p>{t('import.step1.body')}</p>
          <TextField
            id="import-namespace"
            className="field-narrow"
            label={t('import.namespace')}
            hint={t('import.namespaceHelp', { default: DEFAULT_NAMESPACE })}
            error={problem ? labelProblemText(t, problem) : null}
            code
            value={namespace}
            onChange={setNamespace}
          />
          {rbac.error ? <ErrorNotice error={rbac.error} testId="rbac-error" /> : null}
          {rbac.text && !problem ? (
            <>
              <CodeBlock
                text={rbac.text}
                label={t('import.rbacLabel', { namespace: rbac.key ?? namespace })}
                fileName={rbacFile}
                mediaType={MEDIA.yaml}
                testId="rbac-yaml"
                tall
              />
              <p className="help">{t('import.applyHint')}</p>
              <CommandLine command={`kubectl apply -f ${rbacFile}`} testId="rbac-apply-command" />
              <p>{t('import.tokenHint')}</p>
              <CommandLine command={tokenCommand} testId="token-command" />
            </>
          ) : rbac.status === 'loading' ? (
            <div className="loading loading-inline" role="status">
              <span className="spinner" aria-hidden="true" />
              {t('app.loading')}
            </div>
          ) : null}
        </WizardStep>

        <WizardStep id="import-step2" number={2} title={t('import.step2.title')}>
          <p>{t('import.step2.body')}</p>
          <form className="form" onSubmit={(e) => void onRegister(e)} noValidate>
            <TextField
              id="import-kubeconfig"
              label={t('import.kubeconfig')}
              labelAction={
                <FilePick
                  label={t('import.pickFile')}
                  onFile={(f) => {
                    setKubeconfig(f.text);
                    setFileNote(t('import.fileLoaded', { file: f.name }));
                    clusterSetupStore.getState().clearRegistration();
                  }}
                  onTooLarge={(name) => setFileNote(t('import.fileTooLarge', { file: name }))}
                  testId="kubeconfig-file"
                />
              }
              hint={t('import.kubeconfigHelp')}
              status={fileNote}
              error={submitted && kubeconfig.trim() === '' ? t('import.kubeconfigMissing') : null}
              rows={10}
              value={kubeconfig}
              onChange={(v) => {
                setKubeconfig(v);
                if (registration.error) clusterSetupStore.getState().clearRegistration();
              }}
              placeholder={'apiVersion: v1\nkind: Config\nclusters: …'}
              testId="kubeconfig"
              input={{ className: 'mono code-input', spellCheck: false, autoComplete: 'off' }}
            />
            <div className="form-actions">
              <BusyButton submit busy={registration.pending} text={['import.register', 'import.registering']} testId="register" />
              <span className="help">{t('import.registerNote', { namespace: problem ? DEFAULT_NAMESPACE : namespace })}</span>
            </div>
          </form>
          {registration.error ? <RegistrationError error={registration.error} /> : null}
          {result ? (
            <div ref={resultRef} className="notice notice-success" role="status" data-testid="registration-result">
              <Icon name="check" className="notice-icon" />
              <div className="notice-body">
                <p className="notice-title">{t('import.registered', { name: clusterName })}</p>
                <dl className="kv">
                  <CodeTerm name={t('import.result.server')} value={result.server} />
                  <CodeTerm name={t('import.result.version')} value={result.kubernetes_version} />
                  <CodeTerm name={t('import.result.namespace')} value={result.namespace} />
                  <dt>{t('import.result.nodes')}</dt>
                  <dd>{fmt.number(result.inventory?.nodes?.length ?? 0)}</dd>
                  <dt>{t('import.result.taken')}</dt>
                  <dd>{fmt.dateTimeLong(result.taken_at)}</dd>
                </dl>
                <p>
                  <a href={clusterHash(clusterId, 'overview')}>{t('import.seeInventory')}</a>
                  <span className="sep" aria-hidden="true">
                    ·
                  </span>
                  <a href={clusterHash(clusterId, 'agent')}>{t('import.nextAgent')}</a>
                </p>
              </div>
            </div>
          ) : null}
        </WizardStep>
      </ol>
    </div>
  );
}
