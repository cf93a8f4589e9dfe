// The words for what is wrong with a component, whether found in the form's fields or in a YAML/JSON document.
import type { SpecIssue } from '../../api/validation';
import type { Translator } from '../../i18n';
import type { DocumentIssue } from './componentDocument';
import { labelProblemText } from '../cluster/ImportWizard';

export const DIGEST_EXAMPLE = 'registry.local/openpolicyagent/opa@sha256:…';

export function specIssueText(t: Translator, issue: SpecIssue): string {
  return t(`components.problem.${issue.problem}`, { field: issue.field, example: DIGEST_EXAMPLE });
}

export function documentIssueText(t: Translator, issue: DocumentIssue): string {
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
