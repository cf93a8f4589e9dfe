// Metrics: each host's CPU, memory and root file system over a window, from the samples its agent took with
// each report (the node exporter's figures where it runs, the kernel's otherwise: each host says which), and the
// service's own unit CPU and memory. Charts by uPlot; reloaded when a host reports.
import { useEffect, useMemo, type ReactElement } from 'react';
import type { MetricsPoint, MetricsSeries } from '../../../../preload/api';
import { serviceSheetStore, useFormat, useServiceSheet, useT } from '../../app/stores';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { METRICS_WINDOWS } from '../../stores/serviceSheet';
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

export function SheetMetrics(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const { metrics, minutes } = useServiceSheet.fields('metrics', 'minutes');
  useEffect(() => {
    void serviceSheetStore.getState().loadMetrics();
  }, []);
  const series = metrics.value?.series ?? [];
  const charts = useMemo(
    () => ({
      cpu: alignSeries(series, (p) => (p.cpu_busy === null ? null : p.cpu_busy * 100)),
      memory: alignSeries(series, (p) => p.memory_used_bytes),
      fs: alignSeries(series, (p) => p.fs_used_bytes),
      unitCpu: alignSeries(series, (p) => (p.unit_cpu === null ? null : p.unit_cpu * 100)),
      unitMemory: alignSeries(series, (p) => p.unit_memory_bytes),
    }),
    [series],
  );
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
            <TimeChart
              title={t('sheet.metrics.cpu')}
              times={charts.cpu.times}
              lines={charts.cpu.lines}
              format={percent}
              locale={fmt.locale}
              timeLabel={t('sheet.metrics.time')}
              testId="chart-cpu"
            />
            <TimeChart
              title={t('sheet.metrics.memory')}
              times={charts.memory.times}
              lines={charts.memory.lines}
              format={bytes}
              locale={fmt.locale}
              timeLabel={t('sheet.metrics.time')}
              testId="chart-memory"
            />
            <TimeChart
              title={t('sheet.metrics.fs')}
              times={charts.fs.times}
              lines={charts.fs.lines}
              format={bytes}
              locale={fmt.locale}
              timeLabel={t('sheet.metrics.time')}
              testId="chart-fs"
            />
            <TimeChart
              title={t('sheet.metrics.unitCpu')}
              times={charts.unitCpu.times}
              lines={charts.unitCpu.lines}
              format={percent}
              locale={fmt.locale}
              timeLabel={t('sheet.metrics.time')}
              testId="chart-unit-cpu"
            />
            <TimeChart
              title={t('sheet.metrics.unitMemory')}
              times={charts.unitMemory.times}
              lines={charts.unitMemory.lines}
              format={bytes}
              locale={fmt.locale}
              timeLabel={t('sheet.metrics.time')}
              testId="chart-unit-memory"
            />
          </div>
        </>
      )}
    </div>
  );
}
