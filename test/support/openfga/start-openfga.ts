// The OpenFGA a test runs against: the real binary when NAVIN_OPENFGA_BIN names one (in-memory datastore, free
// loopback ports), else the OpenFGA test server of this folder. Both lose their stores when stopped.
import { openfgaTestServer, type OpenfgaTestServer } from './openfga-test-server';
import { freePorts } from '../services/ports';
import { ServiceProcess } from '../services/service-process';

export interface OpenfgaUnderTest {
  kind: 'binary' | 'test-server';
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startOpenfga(): Promise<OpenfgaUnderTest> {
  const bin = process.env.NAVIN_OPENFGA_BIN;
  const [port, grpcPort] = (await freePorts(2)) as [number, number];
  const url = `http://127.0.0.1:${port}`;
  if (bin) {
    const proc = new ServiceProcess('openfga', bin, [
      'run',
      `--http-addr=127.0.0.1:${port}`,
      `--grpc-addr=127.0.0.1:${grpcPort}`,
      '--datastore-engine=memory',
      '--playground-enabled=false',
      '--metrics-enabled=false',
      '--log-level=error',
    ]);
    const start = () => proc.start(async () => (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) })).ok);
    await start();
    return { kind: 'binary', url, port, start, stop: () => proc.stop(), close: () => proc.stop() };
  }
  let server: OpenfgaTestServer | null = await openfgaTestServer(port);
  const stop = async () => {
    await server?.close();
    server = null;
  };
  return {
    kind: 'test-server',
    url,
    port,
    stop,
    async start() {
      server ??= await openfgaTestServer(port);
    },
    close: stop,
  };
}
