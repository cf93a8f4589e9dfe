// The two real listeners of a manager in a test: the headless console over TLS and the agent gateway over
// mTLS, both on loopback with free ports, recorded in manager.listeners the way the serve command does.
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { startGateway, type Gateway } from '../../main/core/gateway/gateway';
import { serverTls } from '../../main/core/keys/server-tls';
import { consoleTls } from '../../main/headless/console-tls';
import { startHeadlessServer, type HeadlessServer } from '../../main/headless/https-server';
import type { TestManager } from './manager';

export interface RunningListeners {
  console: HeadlessServer;
  gateway: Gateway;
  close(): Promise<void>;
}

export async function startListeners(t: TestManager): Promise<RunningListeners> {
  const m = t.manager;
  const server = await startHeadlessServer({ manager: m, router: t.router, tls: consoleTls(m, '127.0.0.1'), host: '127.0.0.1', port: 0, rendererDir: mkdtempSync(join(tmpdir(), 'navin-renderer-')) });
  const tls = serverTls(m.ca, m.protector, m.clock, 'gateway', join(t.dataDir, 'tls'), ['localhost']);
  const gateway = await startGateway({ store: m.store, commands: m.commands, events: m.events, clock: m.clock, caPem: tls.caPem, certPem: tls.certPem, keyPem: tls.keyPem, host: '127.0.0.1', port: 0 });
  m.listeners.console = { host: '127.0.0.1', port: Number(new URL(server.url).port), serverName: '127.0.0.1' };
  m.listeners.gateway = { host: '127.0.0.1', port: gateway.port, serverName: 'localhost' };
  return {
    console: server,
    gateway,
    async close() {
      m.listeners.console = undefined;
      m.listeners.gateway = undefined;
      await Promise.all([server.close(), gateway.close()]);
    },
  };
}
