// Applying a ManagedComponent: a form built on the CRD's schema (component, version, replicas, artifacts pinned
// by digest, resources) or a YAML/JSON manifest, both checked here before anything is sent; the manager's own
// refusal (400 invalid_field, field spec.*) lands on the matching field; any other refusal (profile blocked,
// preflight failed, approval needed) says why. Under a four-eyes profile, changing a component asks for the
// approval of its configuration or upgrade.
import { useEffect, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { clusterCommandsStore, componentsStore, useComponents, useT } from '../../app/stores';
import type { ApiError } from '../../api/client';
import type { ComponentKind, ManagedComponentSpec } from '../../api/types';
import { COMPONENT_KINDS, validateComponentName, validateComponentSpec, validateImageDigest, type SpecIssue } from '../../api/validation';
import type { Translator } from '../../i18n';
import type { DocumentIssue, ParsedComponent, parseComponentDocument } from '../../lib/componentDocument';
import { componentManifest } from '../../lib/componentManifest';
import type { ComponentRow } from '../../stores/components';
import { Icon } from '../../components/Icon';
import { ApprovalPicker } from './ApprovalPicker';
import { useFourEyesActions } from './ComponentActions';
import { labelProblemText } from './ImportWizard';
import { useManagedNamespace } from './namespace';
import { OperationError } from './OperationError';
import { Field } from '../../components/Field';
import { TextField } from '../../components/TextField';
import { useAutoFocus } from '../../lib/useAutoFocus';
import { Options } from '../../components/Options';

type Mode = 'form' | 'editor';

interface ArtifactDraft {
  key: number;
  name: string;
  image: string;
}

interface Draft {
  name: string;
  component: ComponentKind;
  version: string;
  replicas: string;
  artifacts: ArtifactDraft[];
  cpu: string;
  memory: string;
  config: Record<string, unknown> | undefined;
}

let artifactKey = 0;

interface Parser {
  parseComponentDocument: typeof parseComponentDocument;
}
let parserLoad: Promise<Parser> | null = null;
/** The YAML parser, fetched once (when the editor first opens); a failed fetch is tried again next time. */
function loadParser(): Promise<Parser> {
  parserLoad ??= import('../../lib/componentDocument').catch((e: unknown) => {
    parserLoad = null;
    throw e;
  });
  return parserLoad;
}
const parseDocument = async (text: string): Promise<ParsedComponent> => (await loadParser()).parseComponentDocument(text);
const DIGEST_EXAMPLE = 'registry.local/openpolicyagent/opa@sha256:…';

function draftOf(row: Pick<ComponentRow, 'name' | 'spec'> | null): Draft {
  const spec = row?.spec;
  return {
    name: row?.name ?? '',
    component: (spec?.component as ComponentKind | undefined) ?? 'opa',
    version: spec?.version ?? '',
    replicas: spec?.replicas !== undefined ? String(spec.replicas) : '',
    artifacts: (spec?.artifacts ?? []).map((a) => ({ key: ++artifactKey, name: a.name, image: a.image })),
    cpu: spec?.resources?.cpu ?? '',
    memory: spec?.resources?.memory ?? '',
    config: spec?.config,
  };
}

/** The spec the form describes (numbers parsed; empty optional fields left out). */
export function specOfDraft(d: Draft): unknown {
  const spec: Record<string, unknown> = { component: d.component, version: d.version.trim() };
  if (d.replicas.trim() !== '') spec.replicas = /^\d+$/.test(d.replicas.trim()) ? Number(d.replicas.trim()) : d.replicas.trim();
  if (d.artifacts.length > 0) spec.artifacts = d.artifacts.map((a) => ({ name: a.name.trim(), image: a.image.trim() }));
  const cpu = d.cpu.trim();
  const memory = d.memory.trim();
  if (cpu || memory) spec.resources = { ...(cpu ? { cpu } : {}), ...(memory ? { memory } : {}) };
  if (d.config && Object.keys(d.config).length > 0) spec.config = d.config;
  return spec;
}

export function specIssueText(t: Translator, issue: SpecIssue): string {
  return t(`components.problem.${issue.problem}`, { field: issue.field, example: DIGEST_EXAMPLE });
}

function documentIssueText(t: Translator, issue: DocumentIssue): string {
  switch (issue.kind) {
    case 'empty':
      return t('components.editor.empty');
    case 'syntax':
      return issue.line !== null
        ? t('components.editor.syntaxAt', { line: issue.line, message: issue.message })
        : t('components.editor.syntax', { message: issue.message });
    case 'several':
      return t('components.editor.several');
    case 'not_object':
      return t('components.editor.notObject');
    case 'wrong_kind':
      return t('components.editor.wrongKind', { found: issue.found || '–' });
    case 'name':
      return t('components.editor.name', { problem: labelProblemText(t, issue.problem) });
    case 'spec':
      return specIssueText(t, issue.issue);
  }
}

/** Which form control a field of the manager's answer points to. */
function controlOf(field: string | undefined): string | null {
  if (!field) return null;
  if (field === 'name') return 'name';
  const m = /^spec\.(component|version|replicas|resources|config)/.exec(field);
  if (m?.[1]) return m[1];
  const a = /^spec\.artifacts(?:\[(\d+)\])?/.exec(field);
  if (a) return a[1] !== undefined ? `artifact-${a[1]}` : 'artifacts';
  return null;
}

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
  const fieldError = (control: string): ReactElement | null => {
    const m = messageFor(control);
    return m ? (
      <p className="field-error" id={`component-${control}-error`} data-testid={`component-${control}-error`}>
        {m}
      </p>
    ) : null;
  };
  const invalid = (control: string): true | undefined => (messageFor(control) ? true : undefined);

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
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onClose();
        }
      }}
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
                <Options values={COMPONENT_KINDS} label={(k) => t(`components.kind.${k}`)} />
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
              input={{ className: 'mono', 'aria-invalid': invalid('resources') }}
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

          <fieldset className="artifacts" aria-describedby="artifacts-help">
            <legend>{t('components.field.artifacts')}</legend>
            <p id="artifacts-help" className="help">
              {t('components.form.artifactsHelp', { example: DIGEST_EXAMPLE })}
            </p>
            {draft.artifacts.map((a, i) => {
              const imageProblem = a.image.trim() !== '' ? validateImageDigest(a.image) : null;
              return (
                <div key={a.key} className="artifact-row" data-testid="artifact-row">
                  <Field id={`artifact-name-${a.key}`} label={t('components.artifact.name', { n: i + 1 })}>
                    <input
                      className="mono"
                      value={a.name}
                      onChange={(e) =>
                        update({ artifacts: draft.artifacts.map((x) => (x.key === a.key ? { ...x, name: e.target.value } : x)) })
                      }
                      aria-invalid={invalid(`artifact-${i}`)}
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
                      onChange={(e) =>
                        update({ artifacts: draft.artifacts.map((x) => (x.key === a.key ? { ...x, image: e.target.value } : x)) })
                      }
                      placeholder="registry.local/openpolicyagent/opa@sha256:…"
                    />
                  </Field>
                  <button
                    type="button"
                    className="btn btn-sm btn-icon"
                    aria-label={t('components.artifact.remove', { n: i + 1 })}
                    title={t('components.artifact.remove', { n: i + 1 })}
                    onClick={() => update({ artifacts: draft.artifacts.filter((x) => x.key !== a.key) })}
                  >
                    <Icon name="close" />
                  </button>
                </div>
              );
            })}
            <button
              type="button"
              className="btn btn-sm"
              onClick={() => update({ artifacts: [...draft.artifacts, { key: ++artifactKey, name: '', image: '' }] })}
              data-testid="add-artifact"
            >
              <Icon name="plus" />
              {t('components.artifact.add')}
            </button>
          </fieldset>

          {refusalAndApproval}
          <div className="form-actions">{applyButtons('apply-submit')}</div>
        </form>
      ) : (
        <form className="form" onSubmit={(e) => void onSubmitEditor(e)} noValidate data-testid="component-editor">
          <div className="field">
            <label htmlFor="component-document">{t('components.editor.label')}</label>
            <textarea
              id="component-document"
              className="mono code-input"
              rows={16}
              value={text}
              spellCheck={false}
              onChange={(e) => {
                setText(e.target.value);
                setLocal(null);
                setChecked(null);
                if (serverError) componentsStore.getState().clearApply();
              }}
              aria-invalid={invalid('editor') || (serverControl ? true : undefined)}
              aria-describedby="component-document-help component-editor-error"
              data-testid="component-document"
            />
            <p id="component-document-help" className="help">
              {t('components.editor.help')}
            </p>
            <div aria-live="polite">
              {fieldError('editor')}
              {serverControl && serverError ? (
                <p className="field-error" data-testid="component-editor-server-error">
                  {t('components.editor.refused', { field: serverError.field ?? '', message: serverError.message })}
                </p>
              ) : null}
              {checked ? (
                <p className="field-ok" data-testid="component-editor-valid">
                  <Icon name="check" />
                  {checked}
                </p>
              ) : null}
            </div>
          </div>
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
