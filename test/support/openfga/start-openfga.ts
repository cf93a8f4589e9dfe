// The OpenFGA a test runs against: the real binary when NAVIN_OPENFGA_BIN names one (in-memory datastore), else
// the OpenFGA test server of this folder. Both lose their stores when stopped.
import { openfgaTestServer } from './openfga-test-server';
import { serviceUnderTest, type ServiceUnderTest } from '../services/service-under-test';

export type OpenfgaUnderTest = ServiceUnderTest;

export function startOpenfga(): Promise<OpenfgaUnderTest> {
  return serviceUnderTest({
    name: 'openfga',
    bin: process.env.NAVIN_OPENFGA_BIN,
    extraPorts: 1,
    args: (port, [grpcPort]) => [
      'run',
      `--http-addr=127.0.0.1:${port}`,
      `--grpc-addr=127.0.0.1:${grpcPort}`,
      '--datastore-engine=memory',
      '--playground-enabled=false',
      '--metrics-enabled=false',
      '--log-level=error',
    ],
    healthPath: '/healthz',
    testServer: openfgaTestServer,
  });
}
