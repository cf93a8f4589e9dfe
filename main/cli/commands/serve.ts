// `navin-manager serve`: the manager core without Electron, the console over HTTPS on loopback.
import { resolve } from 'node:path';
import { RENDERER_DIR } from '../app-paths';
import { readCatalogDir } from '../../core/catalog/catalog-loader';
import { openManager } from '../../core/manager';
import { consoleApi } from '../../api/console-api';
import { consoleTls } from '../../headless/console-tls';
import { startHeadlessServer } from '../../headless/https-server';
import type { Gateway } from '../../core/gateway/gateway';
import { startEmbeddedGateway } from '../../core/gateway/embedded-gateway';
import { dataDirOption } from '../data-dir';
import { say } from '../output';
import { untilSignalled } from '../until-signalled';
import { portOption, textOptions, type Command } from '../usage';

export const DEFAULT_PORT = 8443;
export const DEFAULT_GATEWAY_PORT = 8462;

export interface ServeOptions {
  dataDir: string;
  host: string;
  port: number;
  loginUser?: string;
  /** The embedded agent gateway; absent means none. */
  gateway?: { host: string; port: number; serverName: string };
  /** A folder of service descriptors instead of the shipped catalog. */
  catalogDir?: string;
}

/** Runs until SIGINT or SIGTERM, then closes the listener and the database before resolving. */
export async function serve(opts: ServeOptions): Promise<number> {
  const manager = openManager({
    dataDir: opts.dataDir,
    mode: 'headless',
    catalogFiles: opts.catalogDir ? readCatalogDir(resolve(opts.catalogDir)) : undefined,
  });
  try {
    const server = await startHeadlessServer({
      manager,
      router: consoleApi(),
      tls: () => consoleTls(manager, opts.host),
      host: opts.host,
      port: opts.port,
      rendererDir: RENDERER_DIR,
    });
    say(`data dir ${opts.dataDir}`);
    const consoleHost = opts.host === '0.0.0.0' || opts.host === '::' ? '127.0.0.1' : opts.host;
    manager.listeners.console = { host: consoleHost, port: Number(new URL(server.url).port), serverName: consoleHost };
    let gateway: Gateway | undefined;
    if (opts.gateway) {
      const g = opts.gateway;
      gateway = await startEmbeddedGateway(manager, g);
      say(`agent gateway at ${gateway.url} (server name ${g.serverName})`);
    }
    say(`console at ${server.url}`);
    if (!manager.accounts.hasUsers()) {
      say(
        `no account yet: create the first admin with this one-time link (valid 15 minutes): ${server.url}#setup=${manager.accounts.issueSetupTicket()}`,
      );
    } else {
      const user = opts.loginUser ?? manager.accounts.firstAdminName();
      if (user) say(`one-time login link for ${user} (valid 15 minutes): ${server.url}#ticket=${manager.accounts.issueLoginTicket(user)}`);
    }
    manager.syslog.start();
    manager.drift.startSchedule();
    manager.services.renewals.startSchedule();
    say('press Ctrl-C to stop');
    await untilSignalled(() => Promise.all([server.close(), gateway?.close(), manager.syslog.stop()]));
    say('stopped');
    return 0;
  } finally {
    manager.close();
  }
}

export const serveCommand: Command = {
  name: 'serve',
  usage: `navin-manager serve [--data-dir D] [--host 127.0.0.1] [--port ${DEFAULT_PORT}] [--login-user NAME]

  --data-dir D       where the store and keys live (default: $NAVIN_DATA_DIR or ~/.config/navin-console)
  --host H           address to listen on (default 127.0.0.1; the console is meant for loopback)
  --port P           TCP port, 0 for any free one (default ${DEFAULT_PORT})
  --login-user NAME  whom the one-time login link printed at start logs in (default: the first admin)
  --gateway-host H   address of the embedded agent gateway (default 127.0.0.1)
  --gateway-port P   its port (default 8462, 0 for any free one, "off" for no gateway)
  --gateway-server-name N  the name in its certificate (default: --gateway-host)
  --catalog DIR      a folder of service descriptors (*.yaml) instead of the catalog shipped with this manager

Private keys are sealed with the data dir's master.key, or with the passphrase in the file
named by NAVIN_MASTER_KEY_FILE. Ctrl-C stops the manager cleanly.`,
  options: textOptions('data-dir', 'host', 'port', 'login-user', 'gateway-host', 'gateway-port', 'gateway-server-name', 'catalog'),
  run: (args) =>
    serve({
      dataDir: dataDirOption(args.values['data-dir']),
      host: (args.values.host as string | undefined) ?? '127.0.0.1',
      port: portOption(args.values.port, DEFAULT_PORT),
      loginUser: args.values['login-user'] as string | undefined,
      gateway: gatewayOptions(args.values),
      catalogDir: args.values.catalog as string | undefined,
    }),
};

function gatewayOptions(v: Record<string, string | boolean | undefined>): ServeOptions['gateway'] {
  if (v['gateway-port'] === 'off') return undefined;
  const host = (v['gateway-host'] as string | undefined) ?? '127.0.0.1';
  return {
    host,
    port: portOption(v['gateway-port'], DEFAULT_GATEWAY_PORT),
    serverName: (v['gateway-server-name'] as string | undefined) ?? host,
  };
}
