// The agent gateway as the manager runs it, alone or embedded by the desktop app and `navin-manager serve`: its
// server certificate from the manager CA for the configured name; embedded, recorded in the manager's listeners
// so that the profile rules and the preflight probe the gateway that really runs.
import { join } from 'node:path';
import type { Clock } from '../clock';
import type { Commands } from '../commands/commands';
import type { HostCommands } from '../hosts/host-commands';
import type { CoreEvents } from '../events';
import type { CertificateAuthority } from '../keys/ca';
import type { KeyProtector } from '../keys/protector';
import { serverTls, type TlsMaterial } from '../keys/server-tls';
import type { Listeners } from '../listeners';
import type { Store } from '../store/store';
import type { Tables } from '../domain-tables';
import { startGateway, type Gateway } from './gateway';

/** How often a gateway reads the CA rotation's step from the store (its own process's steps reach it at once). */
const CA_RELOAD_MS = 3_000;

/** What the gateway needs of the manager (the composition root passes itself; nothing here imports it). */
export interface EmbeddedGatewayDeps {
  dataDir: string;
  store: Store;
  /** What the gateway reads of the agents' certificates, commands and hosts. */
  tables: Tables<'clusterAccess' | 'commands' | 'hosts' | 'keys'>;
  commands: Commands;
  hostCommands: HostCommands;
  events: CoreEvents;
  clock: Clock;
  ca: CertificateAuthority;
  protector: KeyProtector;
  listeners: Listeners;
}

export interface EmbeddedGatewayOptions {
  host: string;
  port: number;
  serverName: string;
}

/**
 * The gateway on the manager's store and command pipelines, with a server certificate of the manager CA for
 * `serverName` kept in `tlsDir`: what the embedded gateway and `navin-manager gateway` (alone) both run.
 */
export async function startManagerGateway(
  manager: Omit<EmbeddedGatewayDeps, 'dataDir' | 'listeners'>,
  o: EmbeddedGatewayOptions & { tlsDir: string },
): Promise<Gateway> {
  const tls = (): TlsMaterial => serverTls(manager.ca, manager.protector, manager.clock, 'gateway', o.tlsDir, [o.serverName]);
  const first = tls();
  const gateway = await startGateway({
    store: manager.store,
    tables: manager.tables,
    commands: manager.commands,
    hosts: manager.hostCommands,
    events: manager.events,
    clock: manager.clock,
    ca: manager.ca,
    caPem: first.caPem,
    certPem: first.certPem,
    keyPem: first.keyPem,
    host: o.host,
    port: o.port,
  });
  // A CA rotation's step: the server certificate of the CA that issues now, and the CAs trusted now. Another
  // process (the console's manager) moves the rotation on: its steps are read from the store every few seconds.
  const off = manager.ca.onChange(() => gateway.reloadTls(tls()));
  const timer = setInterval(() => manager.ca.reload(), CA_RELOAD_MS);
  timer.unref();
  const close = gateway.close;
  return {
    ...gateway,
    close: () => {
      off();
      clearInterval(timer);
      return close();
    },
  };
}

export async function startEmbeddedGateway(manager: EmbeddedGatewayDeps, o: EmbeddedGatewayOptions): Promise<Gateway> {
  const gateway = await startManagerGateway(manager, { ...o, tlsDir: join(manager.dataDir, 'tls') });
  manager.listeners.gateway = { host: o.host, port: gateway.port, serverName: o.serverName };
  return gateway;
}
