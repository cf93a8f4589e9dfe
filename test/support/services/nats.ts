// Debian's nats-server (2.9) run by a test on loopback: client and monitoring ports free, JetStream on with its
// own store folder unless told otherwise; it can be stopped and started again on the same ports and store.
import { ServiceProcess, serviceDir } from './service-process';
import { freePorts } from './ports';

export const NATS_BIN = process.env.NAVIN_NATS_BIN ?? '/usr/sbin/nats-server';

export interface NatsServer {
  clientPort: number;
  monitorPort: number;
  url: string;
  monitorUrl: string;
  storeDir: string | null;
  process: ServiceProcess;
  start(): Promise<void>;
  stop(): Promise<void>;
  close(): Promise<void>;
}

export async function startNats(opts: { jetstream?: boolean } = {}): Promise<NatsServer> {
  const jetstream = opts.jetstream ?? true;
  const dir = serviceDir('navin-nats-');
  const [clientPort, monitorPort] = (await freePorts(2)) as [number, number];
  const storeDir = jetstream ? dir.sub('store') : null;
  const proc = new ServiceProcess('nats-server', NATS_BIN, [
    '-a',
    '127.0.0.1',
    '-p',
    String(clientPort),
    '-m',
    String(monitorPort),
    ...(storeDir ? ['-js', '-sd', storeDir] : []),
  ]);
  const monitorUrl = `http://127.0.0.1:${monitorPort}`;
  const start = () =>
    proc.start(async () => {
      const res = await fetch(`${monitorUrl}/healthz`, { signal: AbortSignal.timeout(1000) });
      return res.ok;
    });
  try {
    await start();
  } catch (error) {
    dir.remove();
    throw error;
  }
  return {
    clientPort,
    monitorPort,
    url: `nats://127.0.0.1:${clientPort}`,
    monitorUrl,
    storeDir,
    process: proc,
    start,
    stop: () => proc.stop(),
    async close() {
      await proc.stop();
      dir.remove();
    },
  };
}
