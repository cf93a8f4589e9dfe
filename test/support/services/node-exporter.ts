// Debian's prometheus-node-exporter (1.5) run by a test on a free loopback port, with its default collectors
// unless the test passes its own flags.
import { ServiceProcess } from './service-process';
import { freePorts } from './ports';

export const NODE_EXPORTER_BIN = process.env.NAVIN_NODE_EXPORTER_BIN ?? '/usr/bin/prometheus-node-exporter';

export interface NodeExporter {
  port: number;
  metricsUrl: string;
  process: ServiceProcess;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function startNodeExporter(flags: string[] = []): Promise<NodeExporter> {
  const [port] = (await freePorts(1)) as [number];
  const metricsUrl = `http://127.0.0.1:${port}/metrics`;
  const proc = new ServiceProcess('node exporter', NODE_EXPORTER_BIN, [`--web.listen-address=127.0.0.1:${port}`, ...flags]);
  const start = () =>
    proc.start(async () => {
      const res = await fetch(metricsUrl, { signal: AbortSignal.timeout(1000) });
      await res.text();
      return res.ok;
    });
  await start();
  return { port, metricsUrl, process: proc, start, stop: () => proc.stop() };
}
