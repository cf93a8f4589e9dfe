// The YAML/JSON manifest of a component, as typed, with what is wrong with it (found here or refused by the
// manager) or the check's verdict that it is valid.
import type { ReactElement } from 'react';
import { useT } from '../../app/stores';
import type { ApiError } from '../../api/client';
import { Icon } from '../../components/Icon';

export function ComponentDocumentField({
  text,
  onChange,
  problem,
  refusal,
  valid,
}: {
  text: string;
  onChange: (text: string) => void;
  /** What the check found wrong with the text. */
  problem: string | null;
  /** The manager's refusal of a field of the document (400 invalid_field). */
  refusal: ApiError | null;
  /** The check's verdict on a valid text. */
  valid: string | null;
}): ReactElement {
  const t = useT();
  return (
    <div className="field">
      <label htmlFor="component-document">{t('components.editor.label')}</label>
      <textarea
        id="component-document"
        className="mono code-input"
        rows={16}
        value={text}
        spellCheck={false}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={problem || refusal ? true : undefined}
        aria-describedby="component-document-help component-editor-error"
        data-testid="component-document"
      />
      <p id="component-document-help" className="help">
        {t('components.editor.help')}
      </p>
      <div aria-live="polite">
        {problem ? (
          <p className="field-error" id="component-editor-error" data-testid="component-editor-error">
            {problem}
          </p>
        ) : null}
        {refusal ? (
          <p className="field-error" data-testid="component-editor-server-error">
            {t('components.editor.refused', { field: refusal.field ?? '', message: refusal.message })}
          </p>
        ) : null}
        {valid ? (
          <p className="field-ok" data-testid="component-editor-valid">
            <Icon name="check" />
            {valid}
          </p>
        ) : null}
      </div>
    </div>
  );
}
