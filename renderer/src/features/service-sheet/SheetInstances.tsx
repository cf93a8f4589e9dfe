// Instances: each host's instance as its agent last reported it: systemd's state, main PID, uptime, the restarts
// systemd made on its own, the unit's memory, and the liveness check the agent runs.
import type { ReactElement } from 'react';
import { useFormat, useServiceSheet, useT } from '../../app/stores';
import { Tone } from '../../components/Badges';
import { DataTable } from '../../components/DataTable';
import { formatBytes, formatDuration } from './units';
import { ObservedStateBadge } from './ObservedStateBadge';

const COLUMNS = ['instance', 'state', 'pid', 'uptime', 'restarts', 'memory', 'liveness', 'observed'] as const;

export function SheetInstances(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const instances = useServiceSheet((s) => s.sheet.value?.instances ?? []);
  return (
    <DataTable
      caption={t('sheet.instances.caption')}
      captionId="sheet-instances-caption"
      columns={COLUMNS.map((c) => t(`sheet.instances.col.${c}`))}
      testId="sheet-instances"
      wrap={{ role: 'region', 'aria-labelledby': 'sheet-instances-caption', tabIndex: 0 }}
    >
      {instances.map((i) => (
        <tr key={i.name} data-testid="sheet-instance" data-host={i.name} data-state={i.state}>
          <th scope="row">
            {i.name} {i.address ? <code className="muted">{i.address}</code> : null}
            <br />
            <code className="muted">{i.unit}</code>
          </th>
          <td>
            <ObservedStateBadge state={i.state} testId="instance-state" />
            {i.active_state ? (
              <span className="muted">
                {' '}
                {i.active_state}/{i.sub_state}
              </span>
            ) : null}
          </td>
          <td>{i.main_pid ?? '—'}</td>
          <td data-testid="instance-uptime">{i.uptime_s === null ? '—' : formatDuration(t, i.uptime_s)}</td>
          <td data-testid="instance-restarts">{i.restarts ?? '—'}</td>
          <td>{i.memory_bytes === null ? '—' : formatBytes(t, fmt.number, i.memory_bytes)}</td>
          <td data-testid="instance-liveness" data-status={i.liveness?.status ?? 'none'}>
            {i.liveness ? (
              <>
                <Tone tone={i.liveness.status === 'pass' ? 'ok' : 'bad'}>{t(`sheet.check.${i.liveness.status}`)}</Tone>
                {i.liveness.code ? <code> {i.liveness.code}</code> : null}
              </>
            ) : (
              t('sheet.check.none')
            )}
          </td>
          <td>{i.observed_at ? fmt.dateTime(i.observed_at) : '—'}</td>
        </tr>
      ))}
    </DataTable>
  );
}
