// The two real listeners of a manager in a test: the headless console over TLS and the agent gateway over
// mTLS, both on loopback with free ports, recorded in manager.listeners the way the serve command does.
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Gateway } from '../../main/core/gateway/gateway';
import { startEmbeddedGateway } from '../../main/core/gateway/embedded-gateway';
import { consoleTls } from '../../main/headless/console-tls';
import { startHeadlessServer, type HeadlessServer } from '../../main/headless/https-server';
import type { TestManager } from './manager';
import type { RateLimit } from '../../main/core/http/rate-limit';

export interface RunningListeners {
  console: HeadlessServer;
  gateway: Gateway;
  close(): Promise<void>;
}

export async function startListeners(t: TestManager, opts: { credentialRateLimit?: RateLimit } = {}): Promise<RunningListeners> {
  const m = t.manager;
  // An empty folder as the console's static files: these tests call the API only.
  const rendererDir = mkdtempSync(join(tmpdir(), 'navin-renderer-'));
  const server = await startHeadlessServer({
    manager: m,
    router: t.router,
    tls: () => consoleTls(m, '127.0.0.1'),
    host: '127.0.0.1',
    port: 0,
    rendererDir,
    credentialRateLimit: opts.credentialRateLimit,
  });
  const gateway = await startEmbeddedGateway(m, { host: '127.0.0.1', port: 0, serverName: 'localhost' });
  m.listeners.console = { host: '127.0.0.1', port: Number(new URL(server.url).port), serverName: '127.0.0.1' };
  return {
    console: server,
    gateway,
    async close() {
      m.listeners.console = undefined;
      m.listeners.gateway = undefined;
      await Promise.all([server.close(), gateway.close()]);
      rmSync(rendererDir, { recursive: true, force: true });
    },
  };
}
