// The node exporter's functional test: one scrape, parsed as Prometheus text format, must hold CPU, memory and
// file system metrics whose values make sense together (available memory within the total, free space within
// the size), so an exporter that answers but collects nothing useful fails.
import parsePrometheusTextFormat, { type PromFamily } from 'parse-prometheus-text-format';
import type { CheckOutcome, CheckParams } from '../../main/wire/service-checks';
import { expectStatus, timeoutOf } from './http-call';
import { CheckFailure, runBody, type RunCheckOptions } from './outcome';
import { loadTls, trustWords } from './tls-client';
import { checkGet, clockOf } from './tls-handshake';

const CPU = 'node_cpu_seconds_total';
const MEM_TOTAL = 'node_memory_MemTotal_bytes';
const MEM_AVAILABLE = 'node_memory_MemAvailable_bytes';
const FS_SIZE = 'node_filesystem_size_bytes';
const FS_AVAIL = 'node_filesystem_avail_bytes';
export const NODE_EXPORTER_REQUIRED = [CPU, MEM_TOTAL, MEM_AVAILABLE, FS_SIZE, FS_AVAIL] as const;

const num = (v: string | undefined): number => (v === undefined ? Number.NaN : Number(v));

export function nodeExporterMetricsCheck(p: CheckParams<'node_exporter.metrics'>, options: RunCheckOptions): Promise<CheckOutcome> {
  const method =
    `scrape ${p.url}, parse it as Prometheus text format and require ${NODE_EXPORTER_REQUIRED.join(', ')}: ` +
    'CPU seconds finite and non-negative with an idle mode per CPU, 0 ≤ available memory ≤ total > 0, ' +
    'each file system 0 ≤ available ≤ size, at least one of size > 0' +
    (p.tls ? `; first a TLS handshake judged, then the scrape${trustWords(p.tls)}` : '');
  return runBody(
    'node_exporter.metrics',
    method,
    options,
    async (run) => {
      const t = p.tls ? await loadTls(p.tls) : undefined;
      const text = await run.step(
        'scrape',
        async () => {
          const answer = await checkGet(run, p.url, t, timeoutOf(p), clockOf(options));
          expectStatus(answer, 200, p.url);
          run.evidence.content_type = answer.contentType;
          // As a Prometheus scrape does: the text format is served as text/plain (0.0.4) or OpenMetrics text. The
          // parser is lenient enough to read an HTML page as metric lines, so the type is judged before it.
          if (!/^(text\/plain|application\/openmetrics-text)\b/.test(answer.contentType)) {
            throw new CheckFailure(
              'unexpected_response',
              `${p.url} served ${answer.contentType || 'no content type'}, not Prometheus text format`,
            );
          }
          return answer.text;
        },
        (t) => `${t.length} bytes`,
      );
      const families = await run.step(
        'parse',
        async () => {
          try {
            return parsePrometheusTextFormat(text);
          } catch (error) {
            throw new CheckFailure('unexpected_response', `not Prometheus text format: ${(error as Error).message}`);
          }
        },
        (f) => `${f.length} metric families`,
      );
      run.evidence.families = families.length;
      const byName = new Map<string, PromFamily>(families.map((f) => [f.name, f]));
      const build = byName.get('node_exporter_build_info')?.metrics[0]?.labels;
      if (build) run.evidence.exporter = { version: build.version, revision: build.revision };
      await run.step(
        'judge',
        async () => judge(byName, run.evidence),
        () => 'CPU, memory and file systems sane',
      );
    },
    true,
  );
}

function judge(byName: Map<string, PromFamily>, evidence: Record<string, unknown>): void {
  const missing = NODE_EXPORTER_REQUIRED.filter((n) => !byName.get(n)?.metrics.length);
  if (missing.length > 0) {
    evidence.missing = missing;
    throw new CheckFailure('metrics_missing', `missing ${missing.join(', ')}`);
  }
  const insane: string[] = [];

  const cpu = byName.get(CPU)!.metrics;
  const cpus = new Set(cpu.map((m) => m.labels?.cpu ?? ''));
  const idle = cpu.filter((m) => m.labels?.mode === 'idle');
  const badCpu = cpu.filter((m) => !(Number.isFinite(num(m.value)) && num(m.value) >= 0));
  evidence.cpu = { cpus: cpus.size, samples: cpu.length, idle_seconds_total: idle.reduce((s, m) => s + num(m.value), 0) };
  if (badCpu.length > 0) insane.push(`${badCpu.length} CPU samples not finite non-negative seconds`);
  if (idle.length !== cpus.size) insane.push(`${idle.length} idle samples for ${cpus.size} CPUs`);

  const total = num(byName.get(MEM_TOTAL)!.metrics[0]?.value);
  const available = num(byName.get(MEM_AVAILABLE)!.metrics[0]?.value);
  evidence.memory = { total_bytes: total, available_bytes: available };
  if (!(total > 0)) insane.push(`memory total ${total}`);
  if (!(available >= 0 && available <= total)) insane.push(`memory available ${available} outside 0..${total}`);

  const key = (l: Record<string, string> | undefined) => `${l?.device ?? ''}\u0000${l?.mountpoint ?? ''}`;
  const avail = new Map(byName.get(FS_AVAIL)!.metrics.map((m) => [key(m.labels), num(m.value)]));
  const filesystems = byName.get(FS_SIZE)!.metrics.map((m) => ({
    mountpoint: m.labels?.mountpoint,
    fstype: m.labels?.fstype,
    size_bytes: num(m.value),
    avail_bytes: avail.get(key(m.labels)),
  }));
  evidence.filesystems = { count: filesystems.length, sample: filesystems.slice(0, 5) };
  const badFs = filesystems.filter(
    (f) => !(f.size_bytes >= 0 && f.avail_bytes !== undefined && f.avail_bytes >= 0 && f.avail_bytes <= f.size_bytes),
  );
  if (badFs.length > 0) insane.push(`file systems with available space outside 0..size: ${badFs.map((f) => f.mountpoint).join(', ')}`);
  if (!filesystems.some((f) => f.size_bytes > 0)) insane.push('no file system with a size');

  if (insane.length > 0) {
    evidence.insane = insane;
    throw new CheckFailure('metrics_insane', insane.join('; '));
  }
}
