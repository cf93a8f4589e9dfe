// The OPA a test runs against: the real binary when NAVIN_OPA_BIN names one (started on a free loopback port),
// else the OPA test server of this folder. Both lose their policies when stopped, as OPA without bundles does.
import { opaTestServer, type OpaTestServer } from './opa-test-server';
import { freePorts } from '../services/ports';
import { ServiceProcess } from '../services/service-process';

export interface OpaUnderTest {
  kind: 'binary' | 'test-server';
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startOpa(): Promise<OpaUnderTest> {
  const bin = process.env.NAVIN_OPA_BIN;
  const [port] = (await freePorts(1)) as [number];
  const url = `http://127.0.0.1:${port}`;
  if (bin) {
    const proc = new ServiceProcess('opa', bin, ['run', '--server', `--addr=127.0.0.1:${port}`, '--log-level=error']);
    const start = () => proc.start(async () => (await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) })).ok);
    await start();
    return { kind: 'binary', url, port, start, stop: () => proc.stop(), close: () => proc.stop() };
  }
  let server: OpaTestServer | null = await opaTestServer(port);
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
      server ??= await opaTestServer(port);
    },
    close: stop,
  };
}
