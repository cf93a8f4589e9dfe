// Installing the cluster agent. Step 1: the gateway URL the agent connects out to, then a new identity (after
// a confirmation: it revokes the previous one at once). Step 2: its files, shown this once (the private key is
// never retrievable again), each saved as a file, and the command that makes the Secret. Step 3: the manifests
// for an image pinned by digest.
import { useState, type FormEvent, type ReactElement } from 'react';
import { clusterSetupStore, useClusterPage, useClusterSetup, useFormat, useT } from '../../app/stores';
import type { IdentityFileName } from '../../api/types';
import {
  validateGatewayUrl,
  validateImageDigest,
  validateServerName,
  type GatewayUrlProblem,
  type ImageProblem,
} from '../../api/validation';
import type { Translator } from '../../i18n';
import { MEDIA } from '../../lib/files';
import { CodeBlock, CommandLine, CopyButton, SaveButton } from '../../components/CodeBlock';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Icon } from '../../components/Icon';
import { TextField } from '../../components/TextField';
import { Confirm } from '../../components/Confirm';
import { CodeTerm } from '../../components/Term';
import { WizardStep } from '../../components/WizardStep';
import { BusyButton } from '../../components/BusyButton';
import { ApprovalRetry } from '../approvals/RetryWithApproval';

/** The target an approval of re-issuing a cluster agent's identity names (the manager's). */
const CLUSTER_AGENT_TARGET = 'agent';

const FILES: readonly IdentityFileName[] = ['config.json', 'manager.pem', 'tls.crt', 'tls.key', 'ca.crt'];
const FILE_MEDIA: Record<IdentityFileName, string> = {
  'config.json': MEDIA.json,
  'manager.pem': MEDIA.pem,
  'tls.crt': MEDIA.pem,
  'tls.key': MEDIA.pem,
  'ca.crt': MEDIA.pem,
};

function gatewayProblemText(t: Translator, p: GatewayUrlProblem): string {
  return t(`agent.gateway.problem.${p}`, { example: 'https://manager.example:8462' });
}

function imageProblemText(t: Translator, p: ImageProblem): string {
  return t(`agent.image.problem.${p}`, { example: 'registry.local/navin/cluster-agent@sha256:…' });
}

export function AgentWizard({ clusterId }: { clusterId: string }): ReactElement {
  const t = useT();
  const cluster = useClusterPage((s) => s.cluster);
  const identity = useClusterSetup((s) => s.identity);
  const result = identity.result;

  return (
    <div className="wizard" data-testid="agent-wizard">
      <p className="wizard-intro">{t('agent.intro')}</p>
      <ol className="steps">
        <IssueStep
          currentSerial={cluster?.agent?.certificate_serial ?? null}
          hasIdentity={cluster?.state !== 'pending' || !!cluster?.agent?.certificate_serial}
        />
        {result ? <FilesStep clusterName={cluster?.name ?? clusterId} /> : null}
        <ManifestsStep clusterName={cluster?.name ?? clusterId} />
      </ol>
      {identity.pending ? (
        <span className="visually-hidden" role="status">
          {t('agent.issuing')}
        </span>
      ) : null}
    </div>
  );
}

function IssueStep({ currentSerial, hasIdentity }: { currentSerial: string | null; hasIdentity: boolean }): ReactElement {
  const t = useT();
  const identity = useClusterSetup((s) => s.identity);
  const clusterId = useClusterSetup((s) => s.clusterId);
  const [gatewayUrl, setGatewayUrl] = useState('');
  const [serverName, setServerName] = useState('');
  const [offlineAfter, setOfflineAfter] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const urlProblem = validateGatewayUrl(gatewayUrl);
  const showUrlProblem = urlProblem && (submitted || (gatewayUrl.length > 0 && urlProblem !== 'required'));
  const serverNameProblem = validateServerName(serverName.trim());
  const offlineValue = offlineAfter.trim() === '' ? undefined : Number(offlineAfter);
  const offlineProblem = offlineValue !== undefined && (!Number.isInteger(offlineValue) || offlineValue < 5 || offlineValue > 86_400);
  const serverError = identity.error;
  const errorOn = (field: string): boolean => serverError?.code === 'invalid_field' && serverError.field === field;

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    setSubmitted(true);
    if (urlProblem || serverNameProblem || offlineProblem) return;
    setConfirming(true);
  };

  /** A new identity while one is live revokes the running agent: under four eyes, with an approval of it. */
  const issue = async (approvalId?: string): Promise<void> => {
    setConfirming(false);
    await clusterSetupStore.getState().issueIdentity({
      gateway_url: gatewayUrl.trim(),
      ...(serverName.trim() ? { server_name: serverName.trim() } : {}),
      ...(offlineValue !== undefined ? { offline_after_s: offlineValue } : {}),
      ...(approvalId ? { approval_id: approvalId } : {}),
    });
  };

  return (
    <WizardStep id="agent-step1" number={1} title={t('agent.step1.title')}>
      <p>{t('agent.step1.body')}</p>
      <form className="form" onSubmit={onSubmit} noValidate data-testid="identity-form">
        <TextField
          id="agent-gateway"
          className="field-wide"
          label={t('agent.gateway')}
          note="required"
          hint={t('agent.gatewayHelp')}
          error={showUrlProblem ? gatewayProblemText(t, urlProblem) : errorOn('gateway_url') ? serverError?.message : null}
          code
          value={gatewayUrl}
          onChange={(v) => {
            setGatewayUrl(v);
            if (serverError) clusterSetupStore.getState().clearIdentityError();
          }}
          placeholder="https://manager.example:8462"
          testId="gateway-url"
        />
        <details
          className="advanced"
          open={serverName !== '' || offlineAfter !== '' || errorOn('server_name') || errorOn('offline_after_s') || undefined}
        >
          <summary>{t('agent.advanced')}</summary>
          <div className="form-grid">
            <TextField
              id="agent-server-name"
              label={t('agent.serverName')}
              note="optional"
              hint={t('agent.serverNameHelp')}
              error={serverNameProblem ? t('agent.serverNameInvalid') : null}
              code
              value={serverName}
              onChange={setServerName}
              placeholder="manager.example"
              testId="server-name"
              input={{ 'aria-invalid': errorOn('server_name') || undefined }}
            />
            <TextField
              id="agent-offline"
              label={t('agent.offlineAfter')}
              note="optional"
              hint={t('agent.offlineAfterHelp', { min: 5, max: 86_400, default: 120 })}
              error={offlineProblem ? t('agent.offlineAfterInvalid', { min: 5, max: 86_400 }) : null}
              value={offlineAfter}
              onChange={setOfflineAfter}
              placeholder="120"
              testId="offline-after"
              input={{ inputMode: 'numeric', 'aria-invalid': errorOn('offline_after_s') || undefined }}
            />
          </div>
        </details>
        {serverError && !errorOn('gateway_url') ? <ErrorNotice error={serverError} testId="identity-error" /> : null}
        {clusterId ? (
          <ApprovalRetry
            write={identity}
            act={{ clusterId, action: 'reissue_identity', service: CLUSTER_AGENT_TARGET }}
            idSuffix="agent-identity"
            onRetry={(approvalId) => void issue(approvalId)}
          />
        ) : null}
        {confirming ? (
          <div
            className="confirm"
            role="alertdialog"
            aria-labelledby="identity-confirm-title"
            aria-describedby="identity-confirm-body"
            data-testid="identity-confirm"
          >
            <p id="identity-confirm-title" className="confirm-title">
              <Icon name="alert" />
              {t('agent.confirm.title')}
            </p>
            <p id="identity-confirm-body">
              {hasIdentity && currentSerial ? t('agent.confirm.revokes', { serial: currentSerial }) : t('agent.confirm.revokesAny')}
            </p>
            <div className="form-actions">
              <button
                type="button"
                className="btn btn-danger btn-sm"
                onClick={() => void issue()}
                autoFocus
                data-testid="identity-confirm-issue"
                onKeyDown={(e) => {
                  if (e.key === 'Escape') setConfirming(false);
                }}
              >
                {t('agent.confirm.issue')}
              </button>
              <button type="button" className="btn btn-sm" onClick={() => setConfirming(false)}>
                {t('common.cancel')}
              </button>
            </div>
          </div>
        ) : (
          <div className="form-actions">
            <BusyButton submit busy={identity.pending} text={['agent.issue', 'agent.issuing']} icon="key" testId="issue-identity" />
          </div>
        )}
      </form>
    </WizardStep>
  );
}

function FilesStep({ clusterName }: { clusterName: string }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const identity = useClusterSetup((s) => s.identity);
  const result = identity.result;
  const [shown, setShown] = useState<IdentityFileName | null>(null);
  const [confirmForget, setConfirmForget] = useState(false);
  if (!result) return <></>;
  const allSaved = FILES.every((f) => identity.saved.includes(f));

  return (
    <WizardStep id="agent-step2" number={2} title={t('agent.step2.title')} className="step-secret" testId="identity-files">
      <div className="notice notice-warning" role="alert">
        <Icon name="alert" className="notice-icon" />
        <div className="notice-body">
          <p className="notice-title">{t('agent.once.title')}</p>
          <p>{t('agent.once.body')}</p>
        </div>
      </div>
      <dl className="kv">
        <CodeTerm name={t('agent.serial')} value={result.serial} className="selectable" testId="identity-serial" />
        <dt>{t('agent.notAfter')}</dt>
        <dd>{fmt.dateTimeLong(result.not_after)}</dd>
        <dt>{t('agent.revoked')}</dt>
        <dd data-testid="revoked-serials">
          {result.revoked_serials.length > 0 ? (
            result.revoked_serials.map((s) => <code key={s}>{s} </code>)
          ) : (
            <span className="muted">{t('agent.revokedNone')}</span>
          )}
        </dd>
      </dl>
      <ul className="file-list" aria-label={t('agent.files')}>
        {FILES.map((f) => {
          const saved = identity.saved.includes(f);
          return (
            <li key={f} className="file-item" data-testid={`identity-file-${f}`} data-saved={saved || undefined}>
              <span className="file-name">
                <Icon name={f === 'tls.key' ? 'key' : 'reports'} />
                <code>{f}</code>
                {f === 'tls.key' ? <span className="badge tone-bad">{t('agent.secretKey')}</span> : null}
                {saved ? (
                  <span className="file-saved">
                    <Icon name="check" />
                    {t('agent.saved')}
                  </span>
                ) : null}
              </span>
              <span className="file-actions">
                <SaveButton
                  text={result.files[f]}
                  fileName={f}
                  mediaType={FILE_MEDIA[f]}
                  label={t('agent.saveFile', { file: f })}
                  testId={`save-${f}`}
                  onSaved={() => clusterSetupStore.getState().markSaved(f)}
                  primary={!saved}
                />
                <CopyButton text={result.files[f]} label={t('agent.copyFile', { file: f })} />
                <button
                  type="button"
                  className="btn btn-sm btn-ghost"
                  aria-expanded={shown === f}
                  onClick={() => setShown(shown === f ? null : f)}
                >
                  {shown === f ? t('agent.hide') : t('agent.show')}
                </button>
              </span>
              {shown === f ? (
                <pre className="code-block-text file-preview" tabIndex={0} aria-label={f}>
                  <code>{result.files[f]}</code>
                </pre>
              ) : null}
            </li>
          );
        })}
      </ul>
      <p>{t('agent.secretHint', { dir: clusterName })}</p>
      <CommandLine command={result.secret_command} testId="secret-command" />
      <div className="form-actions">
        {confirmForget && !allSaved ? (
          <Confirm
            titleId="forget-title"
            title={t('agent.forget.notAllSaved')}
            alert={false}
            onCancel={() => setConfirmForget(false)}
            confirm={{ label: t('agent.forget.anyway'), onClick: () => clusterSetupStore.getState().forgetIdentity() }}
          />
        ) : (
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => (allSaved ? clusterSetupStore.getState().forgetIdentity() : setConfirmForget(true))}
            data-testid="forget-identity"
          >
            {t('agent.forget.button')}
          </button>
        )}
      </div>
    </WizardStep>
  );
}

function ManifestsStep({ clusterName }: { clusterName: string }): ReactElement {
  const t = useT();
  const manifests = useClusterSetup((s) => s.manifests);
  const hasIdentity = useClusterSetup((s) => s.identity.result !== null);
  const [image, setImage] = useState(() => clusterSetupStore.getState().manifests.key ?? '');
  const [submitted, setSubmitted] = useState(false);
  const problem = validateImageDigest(image);
  const showProblem = problem && (submitted || (image.length > 0 && problem !== 'required'));
  const serverOnImage = manifests.error?.code === 'invalid_field' && manifests.error.field === 'image';
  const file = `navin-cluster-agent-${clusterName}.yaml`;

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    setSubmitted(true);
    if (problem) return;
    void clusterSetupStore.getState().loadManifests(image.trim());
  };

  return (
    <WizardStep id="agent-step3" number={hasIdentity ? 3 : 2} title={t('agent.step3.title')}>
      <p>{t('agent.step3.body')}</p>
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          id="agent-image"
          className="field-wide"
          label={t('agent.image')}
          note="required"
          hint={t('agent.imageHelp', { example: 'registry.local/navin/cluster-agent@sha256:<64 hex>' })}
          error={showProblem ? imageProblemText(t, problem) : serverOnImage ? manifests.error?.message : null}
          code
          value={image}
          onChange={setImage}
          placeholder="registry.local/navin/cluster-agent@sha256:…"
        />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={manifests.status === 'loading'} data-testid="show-manifests">
            {manifests.status === 'loading' ? t('app.loading') : t('agent.showManifests')}
          </button>
        </div>
      </form>
      {manifests.error && !serverOnImage ? <ErrorNotice error={manifests.error} testId="manifests-error" /> : null}
      {manifests.text ? (
        <>
          <CodeBlock
            text={manifests.text}
            label={t('agent.manifestsLabel', { image: manifests.key ?? '' })}
            fileName={file}
            mediaType={MEDIA.yaml}
            testId="agent-manifests"
            tall
          />
          <CommandLine command={`kubectl apply -f ${file}`} testId="manifests-apply-command" />
          <p className="help">{t('agent.afterApply')}</p>
        </>
      ) : null}
    </WizardStep>
  );
}
