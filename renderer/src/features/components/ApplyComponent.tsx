// Applying a ManagedComponent: a form built on the CRD's schema (component, version, replicas, artifacts pinned
// by digest, resources) or a YAML/JSON manifest, both checked here before anything is sent; the manager's own
// refusal (400 invalid_field, field spec.*) lands on the matching field; any other refusal (profile blocked,
// preflight failed, approval needed) says why. Under a four-eyes profile, changing a component asks for the
// approval of its configuration or upgrade.
import { useEffect, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { clusterCommandsStore, componentsStore, useComponents, useT } from '../../app/stores';
import type { ApiError } from '../../api/client';
import type { ManagedComponentSpec } from '../../api/types';
import { validateComponentName, validateComponentSpec } from '../../api/validation';
import type { ParsedComponent } from './componentDocument';
import { componentManifest } from './componentManifest';
import type { ComponentRow } from './store';
import { ApprovalPicker } from '../approvals/ApprovalPicker';
import { useFourEyesActions } from './ComponentActions';
import { ComponentDocumentField } from './ComponentDocumentField';
import { ComponentFields } from './ComponentFields';
import { controlOf, draftOf, specOfDraft, type Draft } from './componentDraft';
import { loadParser, parseDocument } from './componentParser';
import { documentIssueText, specIssueText } from './componentProblemTexts';
import { labelProblemText } from '../cluster/ImportWizard';
import { useManagedNamespace } from './namespace';
import { OperationError } from '../cluster/OperationError';
import { useAutoFocus } from '../../lib/useAutoFocus';
import { onEscape } from '../../lib/onEscape';

type Mode = 'form' | 'editor';

export function ApplyComponent({
  initial,
  existing,
  onClose,
}: {
  initial: (Pick<ComponentRow, 'name'> & { spec: ManagedComponentSpec }) | null;
  existing: readonly string[];
  onClose: () => void;
}): ReactElement {
  const t = useT();
  const apply = useComponents((s) => s.apply);
  const { namespace } = useManagedNamespace();
  const [mode, setMode] = useState<Mode>('form');
  const [draft, setDraft] = useState<Draft>(() => draftOf(initial));
  const [text, setTextState] = useState(() =>
    componentManifest(initial?.name ?? 'opa-main', initial?.spec ?? { component: 'opa', version: '' }, namespace),
  );
  // The text on screen for checks still waiting for the parser: their verdict must be about this text.
  const textRef = useRef(text);
  const setText = (value: string): void => {
    textRef.current = value;
    setTextState(value);
  };
  // The focus is taken when the form appears, not in a later frame: a late frame would take it from under typing.
  const nameRef = useAutoFocus<HTMLInputElement>();
  useEffect(() => {
    if (mode === 'editor') void loadParser().catch(() => undefined);
  }, [mode]);
  const [local, setLocal] = useState<{ control: string | null; message: string } | null>(null);
  const [checked, setChecked] = useState<string | null>(null);
  const clusterId = useComponents((s) => s.clusterId) ?? '';
  const fourEyesActions = useFourEyesActions(clusterId);
  const [approvalId, setApprovalId] = useState('');
  // Changing an existing component is its configuration, or its upgrade when the version changes.
  const applyAction = initial ? (draft.version.trim() !== initial.spec.version ? 'upgrade' : 'configuration') : null;
  const needsApproval = applyAction !== null && fourEyesActions.includes(applyAction);

  const serverError: ApiError | null = apply.error;
  const serverControl = serverError?.code === 'invalid_field' ? controlOf(serverError.field) : null;
  const messageFor = (control: string): string | null => {
    if (local?.control === control) return local.message;
    if (serverControl === control && serverError) return serverError.message;
    return null;
  };

  const update = (patch: Partial<Draft>): void => {
    setDraft((d) => ({ ...d, ...patch }));
    setLocal(null);
    if (serverError) componentsStore.getState().clearApply();
  };

  const send = async (name: string, spec: ManagedComponentSpec): Promise<void> => {
    const command = await componentsStore.getState().applyComponent(name, spec, needsApproval && approvalId ? approvalId : undefined);
    if (command) {
      clusterCommandsStore.getState().upsert(command);
      onClose();
    }
  };

  const onSubmitForm = (e: FormEvent): void => {
    e.preventDefault();
    if (apply.pending) return;
    const nameProblem = validateComponentName(draft.name.trim());
    if (nameProblem) {
      setLocal({ control: 'name', message: labelProblemText(t, nameProblem) });
      return;
    }
    const spec = specOfDraft(draft);
    const issue = validateComponentSpec(spec);
    if (issue) {
      setLocal({ control: controlOf(issue.field), message: specIssueText(t, issue) });
      return;
    }
    void send(draft.name.trim(), spec as ManagedComponentSpec);
  };

  /** Checks the text on screen. A text edited while the parser was on its way is checked again, so the verdict
   * shown is always that of the text shown; `edited` says the answer is not about the text first asked about. */
  const checkEditor = async (): Promise<{ parsed: ParsedComponent; edited: boolean } | null> => {
    const asked = textRef.current;
    let current = asked;
    let parsed: ParsedComponent;
    for (;;) {
      try {
        parsed = await parseDocument(current);
      } catch (e) {
        setChecked(null);
        setLocal({
          control: 'editor',
          message: t('components.editor.unavailable', { message: e instanceof Error ? e.message : String(e) }),
        });
        return null;
      }
      if (textRef.current === current) break;
      current = textRef.current;
    }
    if (parsed.ok) {
      setLocal(null);
      setChecked(t('components.editor.valid', { name: parsed.name, component: parsed.spec.component, version: parsed.spec.version }));
    } else {
      setChecked(null);
      setLocal({ control: 'editor', message: documentIssueText(t, parsed.issue) });
    }
    return { parsed, edited: current !== asked };
  };

  const onSubmitEditor = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (apply.pending) return;
    const checked = await checkEditor();
    // What is sent is what was on screen when Apply was pressed, or nothing.
    if (checked && !checked.edited && checked.parsed.ok) await send(checked.parsed.name, checked.parsed.spec);
  };

  const switchMode = async (next: Mode): Promise<void> => {
    if (next === mode) return;
    if (next === 'editor') {
      const spec = specOfDraft(draft) as ManagedComponentSpec;
      setText(componentManifest(draft.name.trim() || 'opa-main', spec, namespace));
    } else {
      const parsed = await parseDocument(text);
      if (parsed.ok) setDraft(draftOf({ name: parsed.name, spec: parsed.spec }));
    }
    setLocal(null);
    setChecked(null);
    setMode(next);
  };

  const replacing = existing.includes(draft.name.trim());
  // Both forms (the fields and the YAML editor) end the same way: the refusal, the approval to spend, Apply.
  const refusalAndApproval = (
    <>
      {serverError && !serverControl ? <OperationError error={serverError} clusterId={clusterId} testId="apply-error" /> : null}
      {needsApproval && initial && applyAction ? (
        <ApprovalPicker action={applyAction} service={initial.name} state={[approvalId, setApprovalId]} idSuffix="apply" />
      ) : null}
    </>
  );
  const applyButtons = (testId: string): ReactElement => (
    <>
      <button
        type="submit"
        className="btn btn-primary"
        disabled={apply.pending}
        aria-busy={apply.pending || undefined}
        data-testid={testId}
      >
        {apply.pending ? t('components.form.applying') : t('components.form.apply', { namespace })}
      </button>
      <button type="button" className="btn" onClick={onClose}>
        {t('common.cancel')}
      </button>
    </>
  );

  return (
    <section
      className="panel create-form"
      aria-labelledby="apply-component-title"
      data-testid="apply-component"
      onKeyDown={onEscape(onClose)}
    >
      <div className="panel-head">
        <h2 id="apply-component-title" className="panel-title">
          {initial ? t('components.form.editTitle', { name: initial.name }) : t('components.form.title')}
        </h2>
        <fieldset className="segmented segmented-compact" data-testid="apply-mode">
          <legend className="visually-hidden">{t('components.form.mode')}</legend>
          {(['form', 'editor'] as const).map((m) => (
            <label key={m} className="segmented-option">
              <input type="radio" name="apply-mode" value={m} checked={mode === m} onChange={() => void switchMode(m)} />
              <span>{t(m === 'form' ? 'components.form.modeForm' : 'components.form.modeEditor')}</span>
            </label>
          ))}
        </fieldset>
      </div>

      {mode === 'form' ? (
        <form className="form" onSubmit={onSubmitForm} noValidate data-testid="component-form">
          <ComponentFields draft={draft} update={update} messageFor={messageFor} replacing={replacing} nameRef={nameRef} />

          {refusalAndApproval}
          <div className="form-actions">{applyButtons('apply-submit')}</div>
        </form>
      ) : (
        <form className="form" onSubmit={(e) => void onSubmitEditor(e)} noValidate data-testid="component-editor">
          <ComponentDocumentField
            text={text}
            onChange={(value) => {
              setText(value);
              setLocal(null);
              setChecked(null);
              if (serverError) componentsStore.getState().clearApply();
            }}
            problem={messageFor('editor')}
            refusal={serverControl ? serverError : null}
            valid={checked}
          />
          {refusalAndApproval}
          <div className="form-actions">
            <button type="button" className="btn" onClick={() => void checkEditor()} data-testid="editor-check">
              {t('components.editor.check')}
            </button>
            {applyButtons('editor-apply')}
          </div>
        </form>
      )}
    </section>
  );
}
