// Screens not built yet: what will be there, in the operator's language, and no sample data.
import type { ReactElement } from 'react';
import { useT } from './stores';
import { EmptyState } from '../components/EmptyState';
import type { IconName } from '../components/Icon';
import type { ScreenId } from '../stores/router';
import { ScreenHeader } from '../components/ScreenHeader';

export type PlaceholderId = Exclude<ScreenId, 'clusters' | 'settings'>;
// Commands, approvals, checks, reports and audit have their own screens now; their texts stay for the palette's
// descriptions.

const BODY: Record<PlaceholderId, `screen.${PlaceholderId}.body`> = {
  components: 'screen.components.body',
  commands: 'screen.commands.body',
  approvals: 'screen.approvals.body',
  checks: 'screen.checks.body',
  reports: 'screen.reports.body',
  certificates: 'screen.certificates.body',
  audit: 'screen.audit.body',
  mirror: 'screen.mirror.body',
};

export function PlaceholderScreen({ id }: { id: PlaceholderId }): ReactElement {
  const t = useT();
  return (
    <section className="screen" aria-labelledby="screen-title" data-testid={`screen-${id}`}>
      <ScreenHeader title={t(`nav.${id}`)} />
      <EmptyState icon={id as IconName} title={t('placeholder.notYet')} testId="placeholder">
        <p>{t(BODY[id])}</p>
        <p className="muted">{t('placeholder.note')}</p>
      </EmptyState>
    </section>
  );
}
