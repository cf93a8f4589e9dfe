// The OPA a test runs against: the real binary when NAVIN_OPA_BIN names one, else the OPA test server of this
// folder. Both lose their policies when stopped, as OPA without bundles does.
import { opaTestServer } from './opa-test-server';
import { serviceUnderTest, type ServiceUnderTest } from '../services/service-under-test';

export type OpaUnderTest = ServiceUnderTest;

export function startOpa(): Promise<OpaUnderTest> {
  return serviceUnderTest({
    name: 'opa',
    bin: process.env.NAVIN_OPA_BIN,
    args: (port) => ['run', '--server', `--addr=127.0.0.1:${port}`, '--log-level=error'],
    healthPath: '/health',
    testServer: opaTestServer,
  });
}
