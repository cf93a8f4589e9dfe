// The fields of a component's form, built on the CRD's schema: name, component, version, replicas, resources and
// the artifacts.
import type { ReactElement, Ref } from 'react';
import { useT } from '../../app/stores';
import type { ComponentKind } from '../../api/types';
import { componentKinds } from '../../../../preload/api';
import { Field } from '../../components/Field';
import { Options } from '../../components/Options';
import { TextField } from '../../components/TextField';
import { ComponentArtifacts } from './ComponentArtifacts';
import type { Draft } from './componentDraft';

export function ComponentFields({
  draft,
  update,
  messageFor,
  replacing,
  nameRef,
}: {
  draft: Draft;
  update: (patch: Partial<Draft>) => void;
  /** The problem the form or the manager found with a control, if any. */
  messageFor: (control: string) => string | null;
  /** Whether the name is that of a component already there (applying replaces it). */
  replacing: boolean;
  nameRef: Ref<HTMLInputElement>;
}): ReactElement {
  const t = useT();
  return (
    <>
      <div className="form-grid form-grid-3">
        <TextField
          id="component-name"
          label={t('components.field.name')}
          note="required"
          hint={replacing ? t('components.form.replaces') : t('components.form.nameHelp')}
          error={messageFor('name')}
          code
          value={draft.name}
          onChange={(v) => update({ name: v })}
          placeholder="opa-main"
          inputRef={nameRef}
        />
        <Field
          id="component-component"
          label={t('components.field.component')}
          error={messageFor('component')}
          errorTestId="component-component-error"
        >
          <select
            value={draft.component}
            onChange={(e) => update({ component: e.target.value as ComponentKind })}
            data-testid="component-kind"
          >
            <Options values={componentKinds} label={(k) => t(`components.kind.${k}`)} />
          </select>
        </Field>
        <TextField
          id="component-version"
          label={t('components.field.version')}
          note="required"
          error={messageFor('version')}
          code
          value={draft.version}
          onChange={(v) => update({ version: v })}
          placeholder="1.2.3"
        />
        <TextField
          id="component-replicas"
          label={t('components.field.replicas')}
          note="optional"
          hint={t('components.form.replicasHelp')}
          error={messageFor('replicas')}
          value={draft.replicas}
          onChange={(v) => update({ replicas: v })}
          placeholder="2"
          input={{ inputMode: 'numeric' }}
        />
        <TextField
          id="component-cpu"
          label={t('components.field.cpu')}
          note="optional"
          value={draft.cpu}
          onChange={(v) => update({ cpu: v })}
          placeholder="500m"
          input={{ className: 'mono', 'aria-invalid': messageFor('resources') ? true : undefined }}
        />
        <TextField
          id="component-memory"
          label={t('components.field.memory')}
          note="optional"
          error={messageFor('resources')}
          errorId="component-resources-error"
          errorTestId="component-resources-error"
          value={draft.memory}
          onChange={(v) => update({ memory: v })}
          placeholder="256Mi"
          input={{ className: 'mono' }}
        />
      </div>
      <ComponentArtifacts artifacts={draft.artifacts} onChange={(artifacts) => update({ artifacts })} messageFor={messageFor} />
    </>
  );
}
