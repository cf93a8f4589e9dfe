// The agent gateway of a test manager on 127.0.0.1 and a free port, with a server certificate from the manager's
// CA for "localhost", and the client certificate of a cluster's agent: the setup every gateway test shares.
import { join } from 'node:path';
import { startGateway, type Gateway, type GatewayOptions } from '../../main/core/gateway/gateway';
import { serverTls } from '../../main/core/keys/server-tls';
import type { ClientCert } from './gateway-client';
import type { TestManager } from './manager';

export type TestGatewayOptions = Pick<GatewayOptions, 'redeliverAfterS' | 'longPollMaxS' | 'hosts' | 'agentRateLimit'>;

export async function startTestGateway(t: TestManager, opts: TestGatewayOptions = {}): Promise<{ gateway: Gateway; caPem: string }> {
  const m = t.manager;
  const tls = serverTls(m.ca, m.protector, m.clock, 'gateway', join(t.dataDir, 'tls'), ['localhost']);
  const gateway = await startGateway({
    store: m.store,
    tables: m.tables,
    commands: m.commands,
    events: m.events,
    clock: m.clock,
    ca: m.ca,
    caPem: tls.caPem,
    certPem: tls.certPem,
    keyPem: tls.keyPem,
    host: '127.0.0.1',
    port: 0,
    ...opts,
  });
  return { gateway, caPem: tls.caPem };
}

/** Issues the agent identity of a cluster and returns it as the client certificate of a gateway call. */
export function agentCert(t: TestManager, clusterId: string, gatewayUrl = 'https://localhost:8462'): ClientCert {
  const identity = t.manager.agentIdentities.issue(clusterId, gatewayUrl, 'test');
  return { certPem: identity.files['tls.crt'], keyPem: identity.files['tls.key'], caPem: identity.files['ca.crt'] };
}
