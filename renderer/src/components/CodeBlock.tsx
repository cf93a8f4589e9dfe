// A text the operator applies or keeps (YAML, commands, PEM): shown as is, with Copy and Save as file.
import { useEffect, useState, type ReactElement } from 'react';
import { useT } from '../app/stores';
import { copyText, saveText } from '../lib/files';
import { Icon } from './Icon';

export function CopyButton({
  text,
  label,
  testId,
  small = true,
}: {
  text: string;
  label?: string;
  testId?: string;
  small?: boolean;
}): ReactElement {
  const t = useT();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      className={small ? 'btn btn-sm' : 'btn'}
      onClick={() => void copyText(text).then((ok) => setState(ok ? 'copied' : 'failed'))}
      data-testid={testId}
      aria-label={label}
    >
      <Icon name={state === 'copied' ? 'check' : 'copy'} />
      <span aria-live="polite">
        {state === 'copied' ? t('common.copied') : state === 'failed' ? t('common.copyFailed') : t('common.copy')}
      </span>
    </button>
  );
}

export function SaveButton({
  text,
  fileName,
  mediaType,
  label,
  testId,
  onSaved,
  primary,
}: {
  text: string;
  fileName: string;
  mediaType: string;
  label?: string;
  testId?: string;
  onSaved?: () => void;
  primary?: boolean;
}): ReactElement {
  const t = useT();
  return (
    <button
      type="button"
      className={primary ? 'btn btn-sm btn-primary' : 'btn btn-sm'}
      onClick={() => {
        saveText(fileName, text, mediaType);
        onSaved?.();
      }}
      data-testid={testId}
      title={t('common.saveAsFile', { file: fileName })}
    >
      <Icon name="download" />
      {label ?? t('common.saveAs', { file: fileName })}
    </button>
  );
}

export function CodeBlock({
  text,
  label,
  fileName,
  mediaType,
  testId,
  tall,
}: {
  text: string;
  label: string;
  fileName?: string;
  mediaType?: string;
  testId?: string;
  tall?: boolean;
}): ReactElement {
  return (
    <div className="code-block" data-testid={testId}>
      <div className="code-block-bar">
        <span className="code-block-label">{label}</span>
        <span className="code-block-actions">
          <CopyButton text={text} testId={testId ? `${testId}-copy` : undefined} />
          {fileName ? (
            <SaveButton
              text={text}
              fileName={fileName}
              mediaType={mediaType ?? 'text/plain'}
              testId={testId ? `${testId}-save` : undefined}
            />
          ) : null}
        </span>
      </div>
      {/* Scrollable region: focusable so it scrolls from the keyboard. */}
      <pre
        className={tall ? 'code-block-text is-tall' : 'code-block-text'}
        tabIndex={0}
        aria-label={label}
        data-testid={testId ? `${testId}-text` : undefined}
      >
        <code>{text}</code>
      </pre>
    </div>
  );
}

/** A one-line command with its Copy button. */
export function CommandLine({ command, testId }: { command: string; testId?: string }): ReactElement {
  const t = useT();
  return (
    <div className="command-line" data-testid={testId}>
      <code className="command-line-text selectable">{command}</code>
      <CopyButton text={command} label={t('common.copyCommand')} testId={testId ? `${testId}-copy` : undefined} />
    </div>
  );
}
