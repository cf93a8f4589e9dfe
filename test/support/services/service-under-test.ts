// A service a test runs against: its real binary when one is named (started on free loopback ports, healthy
// before the test goes on), else a test server of ours speaking its API. Both lose their state when stopped.
import { freePorts } from './ports';
import { ServiceProcess } from './service-process';

export interface ServiceUnderTest {
  kind: 'binary' | 'test-server';
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface ServiceSpec {
  name: string;
  /** The binary, when the environment names one. */
  bin: string | undefined;
  /** Ports besides the HTTP one the binary listens on. */
  extraPorts?: number;
  args(port: number, extra: number[]): string[];
  /** The path answering 200 once the binary serves. */
  healthPath: string;
  testServer(port: number): Promise<{ close(): Promise<void> }>;
}

export async function serviceUnderTest(spec: ServiceSpec): Promise<ServiceUnderTest> {
  const [port, ...extra] = (await freePorts(1 + (spec.extraPorts ?? 0))) as [number, ...number[]];
  const url = `http://127.0.0.1:${port}`;
  if (spec.bin) {
    const proc = new ServiceProcess(spec.name, spec.bin, spec.args(port, extra));
    const start = () => proc.start(async () => (await fetch(`${url}${spec.healthPath}`, { signal: AbortSignal.timeout(1000) })).ok);
    await start();
    return { kind: 'binary', url, port, start, stop: () => proc.stop(), close: () => proc.stop() };
  }
  let server: { close(): Promise<void> } | null = await spec.testServer(port);
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
      server ??= await spec.testServer(port);
    },
    close: stop,
  };
}
