// The artifacts of a component's form: one row per image, each pinned by digest (checked as it is typed).
import type { ReactElement } from 'react';
import { useT } from '../../app/stores';
import { validateImageDigest } from '../../api/validation';
import { Icon } from '../../components/Icon';
import { Field } from '../../components/Field';
import { emptyArtifact, type ArtifactDraft } from './componentDraft';
import { DIGEST_EXAMPLE } from './componentProblemTexts';

export function ComponentArtifacts({
  artifacts,
  onChange,
  messageFor,
}: {
  artifacts: ArtifactDraft[];
  onChange: (artifacts: ArtifactDraft[]) => void;
  /** The problem the form or the manager found with a control (`artifact-<index>`), if any. */
  messageFor: (control: string) => string | null;
}): ReactElement {
  const t = useT();
  const edit = (key: number, patch: Partial<ArtifactDraft>): void =>
    onChange(artifacts.map((x) => (x.key === key ? { ...x, ...patch } : x)));
  return (
    <fieldset className="artifacts" aria-describedby="artifacts-help">
      <legend>{t('components.field.artifacts')}</legend>
      <p id="artifacts-help" className="help">
        {t('components.form.artifactsHelp', { example: DIGEST_EXAMPLE })}
      </p>
      {artifacts.map((a, i) => {
        const imageProblem = a.image.trim() !== '' ? validateImageDigest(a.image) : null;
        return (
          <div key={a.key} className="artifact-row" data-testid="artifact-row">
            <Field id={`artifact-name-${a.key}`} label={t('components.artifact.name', { n: i + 1 })}>
              <input
                className="mono"
                value={a.name}
                onChange={(e) => edit(a.key, { name: e.target.value })}
                aria-invalid={messageFor(`artifact-${i}`) ? true : undefined}
              />
            </Field>
            <Field
              id={`artifact-image-${a.key}`}
              className="field-grow"
              label={t('components.artifact.image', { n: i + 1 })}
              error={imageProblem ? t('components.artifact.digest', { example: DIGEST_EXAMPLE }) : messageFor(`artifact-${i}`)}
              errorTestId={imageProblem ? undefined : `component-artifact-${i}-error`}
            >
              <input
                className="mono"
                value={a.image}
                onChange={(e) => edit(a.key, { image: e.target.value })}
                placeholder="registry.local/openpolicyagent/opa@sha256:…"
              />
            </Field>
            <button
              type="button"
              className="btn btn-sm btn-icon"
              aria-label={t('components.artifact.remove', { n: i + 1 })}
              title={t('components.artifact.remove', { n: i + 1 })}
              onClick={() => onChange(artifacts.filter((x) => x.key !== a.key))}
            >
              <Icon name="close" />
            </button>
          </div>
        );
      })}
      <button type="button" className="btn btn-sm" onClick={() => onChange([...artifacts, emptyArtifact()])} data-testid="add-artifact">
        <Icon name="plus" />
        {t('components.artifact.add')}
      </button>
    </fieldset>
  );
}
