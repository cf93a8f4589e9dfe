// The host's figures a node agent samples with each report: from the node exporter a watched unit names (the
// catalog's host_metrics) when it answers, else from the kernel itself (/proc/stat, /proc/meminfo, statfs of /).
// CPU seconds are counters; the manager turns two samples into a rate.
import { readFileSync, statfsSync } from 'node:fs';
import parsePrometheusTextFormat, { type PromFamily } from 'parse-prometheus-text-format';
import type { HostMetricsSample, MetricsScrape } from '../../main/wire/node-agent';
import { getWithCa } from '../checks/http-call';

const SCRAPE_TIMEOUT_MS = 5_000;
/** The kernel counts /proc/stat and /proc/<pid>/stat in USER_HZ, 100 on every Linux architecture Debian ships. */
export const USER_HZ = 100;

type Figures = Omit<HostMetricsSample, 'at' | 'source' | 'note'>;

/** CPU, memory and the root file system from one node exporter scrape; throws when a family is missing. */
export function figuresFromExporter(text: string): Figures {
  const families = new Map<string, PromFamily>(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
  const metrics = (name: string) => {
    const f = families.get(name)?.metrics;
    if (!f?.length) throw new Error(`the exporter serves no ${name}`);
    return f;
  };
  const cpu = metrics('node_cpu_seconds_total');
  const total = cpu.reduce((s, m) => s + Number(m.value), 0);
  const idle = cpu.filter((m) => m.labels?.mode === 'idle').reduce((s, m) => s + Number(m.value), 0);
  const root = (name: string) => Number(metrics(name).find((m) => m.labels?.mountpoint === '/')?.value ?? Number.NaN);
  const size = root('node_filesystem_size_bytes');
  return {
    cpu: { total_s: total, idle_s: idle, cpus: new Set(cpu.map((m) => m.labels?.cpu)).size },
    memory: {
      total_bytes: Number(metrics('node_memory_MemTotal_bytes')[0]!.value),
      available_bytes: Number(metrics('node_memory_MemAvailable_bytes')[0]!.value),
    },
    filesystem: Number.isFinite(size) ? { mount: '/', size_bytes: size, available_bytes: root('node_filesystem_avail_bytes') } : null,
  };
}

/** The same figures read from the kernel, as the exporter itself reads them. */
export function figuresFromKernel(proc = '/proc', root = '/'): Figures {
  let cpu: Figures['cpu'] = null;
  try {
    const lines = readFileSync(`${proc}/stat`, 'utf8').split('\n');
    // cpu  user nice system idle iowait irq softirq steal (guest time is already counted in user).
    const all = lines[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    cpu = {
      total_s: all.reduce((s, v) => s + v, 0) / USER_HZ,
      idle_s: ((all[3] ?? 0) + (all[4] ?? 0)) / USER_HZ,
      cpus: lines.filter((l) => /^cpu\d+ /.test(l)).length,
    };
  } catch {
    // no /proc/stat: no CPU figures
  }
  let memory: Figures['memory'] = null;
  try {
    const info = Object.fromEntries(
      readFileSync(`${proc}/meminfo`, 'utf8')
        .split('\n')
        .map((l) => /^(\w+):\s+(\d+) kB/.exec(l))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => [m[1], Number(m[2]) * 1024]),
    );
    if (info.MemTotal !== undefined && info.MemAvailable !== undefined)
      memory = { total_bytes: info.MemTotal, available_bytes: info.MemAvailable };
  } catch {
    // no /proc/meminfo
  }
  let filesystem: Figures['filesystem'] = null;
  try {
    const s = statfsSync(root);
    filesystem = { mount: '/', size_bytes: s.blocks * s.bsize, available_bytes: s.bavail * s.bsize };
  } catch {
    // no statfs
  }
  return { cpu, memory, filesystem };
}

/** One sample: the exporter's figures when one is named and answers, the kernel's otherwise (with why). */
export async function sampleHost(scrape: MetricsScrape | undefined): Promise<HostMetricsSample> {
  const at = new Date().toISOString();
  if (scrape) {
    try {
      const ca = scrape.ca_file ? readFileSync(scrape.ca_file, 'utf8') : undefined;
      const answer = await getWithCa(scrape.url, SCRAPE_TIMEOUT_MS, ca);
      if (answer.status !== 200) throw new Error(`${scrape.url} answered ${answer.status}`);
      const figures = figuresFromExporter(answer.text);
      // An exporter skips some root file systems (an overlay, a container's): the kernel's figure stands in, said so.
      if (figures.filesystem) return { at, source: 'node_exporter', ...figures };
      return {
        at,
        source: 'node_exporter',
        ...figures,
        filesystem: figuresFromKernel().filesystem,
        filesystem_from_kernel: true,
      };
    } catch (error) {
      return { at, source: 'host', ...figuresFromKernel(), note: (error as Error).message.slice(0, 300) };
    }
  }
  return { at, source: 'host', ...figuresFromKernel() };
}
