// A time chart (uPlot): one line per host over the same time axis, its values formatted in the operator's
// language, with a hidden table of the latest values for screen readers. Rebuilt when its data changes.
import { useEffect, useRef, type ReactElement } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartLine {
  label: string;
  values: (number | null)[];
}

const COLORS = ['#2563eb', '#16a34a', '#d97706', '#9333ea', '#dc2626', '#0891b2'];

export function TimeChart({
  title,
  times,
  lines,
  format,
  locale,
  timeLabel,
  testId,
}: {
  title: string;
  /** Seconds since the epoch, ascending. */
  times: number[];
  lines: ChartLine[];
  format: (v: number) => string;
  /** Times are written as the operator's language writes them. */
  locale: string;
  /** The legend's word for the time under the cursor. */
  timeLabel: string;
  testId: string;
}): ReactElement {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const time = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' });
    // Seconds on the axis when the window is under ten minutes, else minutes.
    const short = times.length > 1 && times.at(-1)! - times[0]! < 600;
    const axisTime = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', ...(short ? { second: '2-digit' } : {}) });
    const chart = new uPlot(
      {
        width: Math.max(320, el.clientWidth || 600),
        height: 180,
        series: [
          { label: timeLabel, value: (_: uPlot, v: number | null) => (v === null ? '—' : time.format(new Date(v * 1000))) },
          ...lines.map((l, i) => ({
            label: l.label,
            stroke: COLORS[i % COLORS.length],
            width: 2,
            // Hosts report at their own moments: a host without a sample at another's time is not a gap.
            spanGaps: true,
            value: (_: uPlot, v: number | null) => (v === null ? '—' : format(v)),
          })),
        ],
        axes: [
          { values: (_: uPlot, ticks: number[]) => ticks.map((v) => axisTime.format(new Date(v * 1000))) },
          { values: (_: uPlot, ticks: number[]) => ticks.map(format), size: 80 },
        ],
        scales: { x: { time: true } },
        cursor: { drag: { x: false, y: false } },
      },
      [times, ...lines.map((l) => l.values)] as uPlot.AlignedData,
      el,
    );
    return () => chart.destroy();
  }, [times, lines, format, locale, timeLabel]);
  const points = lines.reduce((n, l) => n + l.values.filter((v) => v !== null).length, 0);
  return (
    <figure className="time-chart" data-testid={testId} data-points={points}>
      <figcaption>{title}</figcaption>
      <div ref={box} aria-hidden="true" />
      <table className="visually-hidden">
        <tbody>
          {lines.map((l) => {
            const last = [...l.values].reverse().find((v) => v !== null);
            return (
              <tr key={l.label}>
                <th scope="row">{l.label}</th>
                <td>{last === undefined || last === null ? '—' : format(last)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </figure>
  );
}
