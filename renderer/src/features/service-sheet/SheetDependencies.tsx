// Dependencies: the services this one needs (the catalog's depends_on) and those that need it, each with its
// observed state on this cluster and a link to its own sheet.
import type { ReactElement } from 'react';
import type { SheetDependency } from '../../../../preload/api';
import { useServiceSheet, useT } from '../../app/stores';
import { Panel } from '../../components/Panel';
import { sheetHash } from '../../stores/router';
import { ObservedStateBadge } from './ObservedStateBadge';

function DependencyList({ clusterId, items, testId }: { clusterId: string; items: SheetDependency[]; testId: string }): ReactElement {
  const t = useT();
  if (items.length === 0) return <p className="muted">{t('sheet.deps.none')}</p>;
  return (
    <ul className="plain-list" data-testid={testId}>
      {items.map((d) => (
        <li key={d.service} data-testid="sheet-dependency" data-service={d.service} data-installed={String(d.installed)}>
          <a href={sheetHash(clusterId, d.service)}>{d.title}</a> <code className="muted">{d.service}</code>{' '}
          {d.installed ? <ObservedStateBadge state={d.state} /> : <span className="muted">{t('sheet.deps.notInstalled')}</span>}
        </li>
      ))}
    </ul>
  );
}

export function SheetDependencies({ clusterId }: { clusterId: string }): ReactElement {
  const t = useT();
  const deps = useServiceSheet((s) => s.sheet.value!.dependencies);
  return (
    <div className="sheet-dependencies">
      <Panel titleId="sheet-deps-on" title={t('sheet.deps.dependsOn')} icon="components">
        <DependencyList clusterId={clusterId} items={deps.depends_on} testId="sheet-depends-on" />
      </Panel>
      <Panel titleId="sheet-deps-by" title={t('sheet.deps.requiredBy')} icon="components">
        <DependencyList clusterId={clusterId} items={deps.required_by} testId="sheet-required-by" />
      </Panel>
    </div>
  );
}
