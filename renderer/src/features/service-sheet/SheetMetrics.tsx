// Metrics: each host's CPU, memory and root file system over a window, from the samples its agent took with
// each report (the node exporter's figures where it runs, the kernel's otherwise: each host says which), and the
// service's own unit CPU and memory. Charts by uPlot; reloaded when a host reports.
import { useEffect, useMemo, type ReactElement } from 'react';
import type { MetricsPoint, MetricsSeries } from '../../../../preload/api';
import { serviceSheetStore, useFormat, useServiceSheet, useT } from '../../app/stores';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { METRICS_WINDOWS } from './store';
import { TimeChart, type ChartLine } from './TimeChart';
import { formatBytes } from './units';
import { Unobserved } from './Unobserved';

/** Every host's points on one time axis: a host without a sample at a time has a gap there. */
export function alignSeries(
  series: readonly MetricsSeries[],
  pick: (p: MetricsPoint) => number | null,
): { times: number[]; lines: ChartLine[] } {
  const times = [...new Set(series.flatMap((s) => s.points.map((p) => p.t)))].sort((a, b) => a - b);
  const lines = series.map((s) => {
    const at = new Map(s.points.map((p) => [p.t, pick(p)]));
    return { label: s.host_name, values: times.map((t) => at.get(t) ?? null) };
  });
  return { times, lines };
}

const pct = (v: number | null): number | null => (v === null ? null : v * 100);

/** The charts of the tab: what each draws of a point, and in what unit. */
const CHARTS: {
  id: string;
  title: 'cpu' | 'memory' | 'fs' | 'unitCpu' | 'unitMemory';
  unit: 'percent' | 'bytes';
  pick: (p: MetricsPoint) => number | null;
}[] = [
  { id: 'cpu', title: 'cpu', unit: 'percent', pick: (p) => pct(p.cpu_busy) },
  { id: 'memory', title: 'memory', unit: 'bytes', pick: (p) => p.memory_used_bytes },
  { id: 'fs', title: 'fs', unit: 'bytes', pick: (p) => p.fs_used_bytes },
  { id: 'unit-cpu', title: 'unitCpu', unit: 'percent', pick: (p) => pct(p.unit_cpu) },
  { id: 'unit-memory', title: 'unitMemory', unit: 'bytes', pick: (p) => p.unit_memory_bytes },
];

export function SheetMetrics(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const { metrics, minutes } = useServiceSheet.fields('metrics', 'minutes');
  useEffect(() => {
    void serviceSheetStore.getState().loadMetrics();
  }, []);
  const series = metrics.value?.series ?? [];
  const charts = useMemo(() => CHARTS.map((c) => ({ ...c, ...alignSeries(series, c.pick) })), [series]);
  const percent = useMemo(() => (v: number) => t('sheet.metrics.percent', { n: fmt.number(Math.round(v * 10) / 10) }), [t, fmt]);
  const bytes = useMemo(() => (v: number) => formatBytes(t, fmt.number, v), [t, fmt]);
  return (
    <div className="sheet-metrics">
      <div className="form form-inline">
        <label className="field field-inline">
          {t('sheet.metrics.window')}
          <select
            value={minutes}
            onChange={(e) => void serviceSheetStore.getState().loadMetrics(Number(e.target.value))}
            data-testid="sheet-metrics-window"
          >
            {METRICS_WINDOWS.map((m) => (
              <option key={m} value={m}>
                {t(`sheet.metrics.last.${m}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {metrics.error ? <ErrorNotice error={metrics.error} /> : null}
      {!metrics.value ? (
        <Loading />
      ) : metrics.value.unobserved ? (
        <Unobserved reason={metrics.value.unobserved} />
      ) : (
        <>
          <ul className="plain-list" data-testid="sheet-metrics-sources">
            {series.map((s) => (
              <li key={s.host_id} data-testid="sheet-metrics-source" data-host={s.host_name} data-source={s.source ?? ''}>
                {s.host_name} · {s.source ? t(`sheet.metrics.source.${s.source}`) : '—'} ·{' '}
                {t('sheet.metrics.samples', { n: s.points.length })}
                {s.filesystem_from_kernel ? <span className="muted"> · {t('sheet.metrics.fsFromKernel')}</span> : null}
                {s.note ? <span className="muted"> · {s.note}</span> : null}
              </li>
            ))}
          </ul>
          <div className="chart-grid">
            {charts.map((c) => (
              <TimeChart
                key={c.id}
                title={t(`sheet.metrics.${c.title}`)}
                times={c.times}
                lines={c.lines}
                format={c.unit === 'percent' ? percent : bytes}
                locale={fmt.locale}
                timeLabel={t('sheet.metrics.time')}
                testId={`chart-${c.id}`}
              />
            ))}
          </div>
        </>
      )}
    </div>
  );
}
