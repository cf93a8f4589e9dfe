// The manager core, assembled: the composition root shared by the Electron shell and the headless CLI.
// It owns the data dir (0700), the store, the keys and the services built on them.
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Accounts } from './accounts/accounts';
import { MFA_ROLES } from './profiles/profile-rules';
import { systemClock, type Clock } from './clock';
import { Clusters } from './clusters/clusters';
import { Registration } from './clusters/registration';
import { AgentIdentities } from './clusters/agent-identity';
import { Commands } from './commands/commands';
import { CoreEvents } from './events';
import { CertificateAuthority } from './keys/ca';
import { Keyring } from './keys/keyring';
import { headlessProtector, type KeyProtector } from './keys/protector';
import { Store } from './store/store';
import { openDomainTables, tablesFor, type DomainTables } from './domain-tables';
import { schemaMigrations } from './modules';
import { Reports } from './reports/reports';
import { nodeEd25519 } from '../wire/ed25519-node';
import type { Ed25519 } from '../wire/ed25519';
import { VERSION } from './version';
import { Listeners } from './listeners';
import { Profiles } from './profiles/profiles';
import { hostTlsObserver } from './profiles/host-tls-observer';
import { Preflight } from './preflight/preflight';
import { Approvals } from './approvals/approvals';
import { Lifecycle } from './lifecycle/lifecycle';
import { FourEyesActs } from './lifecycle/four-eyes-acts';
import { Services } from './services/services';
import { Certificates } from './certificates/certificates';
import { Drift } from './drift/drift';
import { ServiceBackups } from './services/service-backups';
import { SupportArchives } from './support/support-archives';
import { ServiceSheets } from './sheet/service-sheet';
import { SyslogForwarder } from './audit/syslog-forwarder';
import { Backups } from './backups/backups';
import { Hosts } from './hosts/hosts';
import { HostIdentities } from './hosts/host-identity';
import { HostCommands } from './hosts/host-commands';
import { loadBuiltinCatalog } from './catalog/catalog-builtin';
import type { CatalogFile, CatalogLoad } from './catalog/catalog-loader';
import { tryParseCatalog } from './catalog/catalog-loader';
import { ReleaseKeys } from './bundle/release-keys';
import { IMPORT_DIR, MirrorService } from './bundle/mirror-service';
import { AuditTrail } from './audit/audit-trail';
import { ConsoleSettings } from './settings/console-settings';

export { VERSION };
export const DATABASE_FILE = 'navin.db';

export interface ManagerOptions {
  dataDir: string;
  mode: 'desktop' | 'headless';
  /** Seals private keys at rest; defaults to the headless key file or NAVIN_MASTER_KEY_FILE. */
  protector?: KeyProtector;
  clock?: Clock;
  ed25519?: Ed25519;
  /** Catalog descriptors instead of the shipped ones (tests of an invalid catalog). */
  catalogFiles?: CatalogFile[];
}

export interface Manager {
  readonly dataDir: string;
  readonly mode: 'desktop' | 'headless';
  readonly version: string;
  readonly clock: Clock;
  readonly ed25519: Ed25519;
  readonly store: Store;
  /** Every domain's tables, built once here; each service is given only those it names (tests read them here). */
  readonly tables: DomainTables;
  readonly accounts: Accounts;
  readonly clusters: Clusters;
  readonly registration: Registration;
  readonly agentIdentities: AgentIdentities;
  readonly commands: Commands;
  readonly keyring: Keyring;
  readonly ca: CertificateAuthority;
  readonly protector: KeyProtector;
  readonly events: CoreEvents;
  readonly reports: Reports;
  /** Where the console and gateway listeners of this process are (set by whoever starts them). */
  readonly listeners: Listeners;
  readonly profiles: Profiles;
  readonly preflight: Preflight;
  readonly approvals: Approvals;
  /** Every operation on a cluster goes through here: profile, four-eyes, preflight, then the command. */
  readonly lifecycle: Lifecycle;
  /** Four eyes for the acts that are no command: deletions, identity re-issues, admins, MFA resets, release keys. */
  readonly fourEyes: FourEyesActs;
  /** Forwards the audit log to the remote syslog target; started by the process that serves. */
  readonly syslog: SyslogForwarder;
  /** Configuration backups of the ManagedComponents of a cluster (allowed even while its profile is blocked). */
  readonly backups: Backups;
  /** Hosts of clusters of kind hosts, their node agent identities and the signed commands (plans) sent to them. */
  readonly hosts: Hosts;
  readonly hostIdentities: HostIdentities;
  readonly hostCommands: HostCommands;
  /** Catalog services installed on hosts clusters, and their operations. */
  readonly services: Services;
  readonly certificates: Certificates;
  /** Backup sets and restores of the services of hosts clusters. */
  readonly serviceBackups: ServiceBackups;
  /** Drift findings of hosts clusters (scans on demand; every hour once startSchedule is called). */
  readonly drift: Drift;
  /** Redacted support archives of hosts clusters. */
  readonly support: SupportArchives;
  /** The component sheet: a service as the agents observed it. */
  readonly sheets: ServiceSheets;
  /** The service catalog as loaded at start, or why it is invalid (the catalog_valid rule reports it). */
  readonly catalog: CatalogLoad;
  /** The release public keys trusted to sign offline bundles. */
  readonly releaseKeys: ReleaseKeys;
  /** The internal mirror: what it holds, and bundle imports. */
  readonly mirror: MirrorService;
  /** The audit log as the console reads it, and its hash chain's verdict. */
  readonly audit: AuditTrail;
  /** Remote audit target, DNS servers, CAs trusted for service endpoints. */
  readonly settings: ConsoleSettings;
  close(): void;
}

export function ensureDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
}

export function openManager(opts: ManagerOptions): Manager {
  ensureDataDir(opts.dataDir);
  const clock = opts.clock ?? systemClock;
  const ed25519 = opts.ed25519 ?? nodeEd25519;
  const protector = opts.protector ?? headlessProtector(opts.dataDir);
  const store = Store.open(join(opts.dataDir, DATABASE_FILE), clock, schemaMigrations());
  try {
    const tables = openDomainTables(store.db);
    const keyring = Keyring.open(store, tablesFor(tables, 'keys'), protector, ed25519, clock);
    const ca = CertificateAuthority.loadOrCreate(tablesFor(tables, 'keys'), protector, clock);
    const events = new CoreEvents();
    const registration = new Registration(store, tablesFor(tables, 'clusterAccess', 'clusters'), protector, clock, events);
    const accounts = new Accounts(store, tablesFor(tables, 'accounts', 'apiTokens'), clock, {
      protector,
      mfaRequiredRoles: () => [...new Set(tables.clusters.profilesInUse().flatMap((p) => MFA_ROLES[p]))],
    });
    const commands = new Commands(store, tablesFor(tables, 'clusterAccess', 'clusters', 'commands'), keyring, clock, events);
    const listeners = new Listeners();
    const syslog = new SyslogForwarder({ store, tables: tablesFor(tables, 'settings'), clock });
    const catalog = opts.catalogFiles ? tryParseCatalog(opts.catalogFiles) : loadBuiltinCatalog();
    // The catalog when it loaded; null when it is invalid (what needs it then says so).
    const loadedCatalog = () => (catalog.ok ? catalog.catalog : null);
    const profiles = new Profiles({
      catalog,
      tables: tablesFor(tables, 'clusterAccess', 'clusters', 'commands', 'reports', 'settings'),
      clock,
      registration,
      accounts,
      listeners,
      caPem: ca.certPem,
      mode: opts.mode,
      syslogStatus: () => syslog.status(),
    });
    const preflight = new Preflight({
      store,
      tables: tablesFor(tables, 'clusterAccess', 'clusters', 'commands', 'hosts', 'lifecycle', 'reports', 'settings'),
      clock,
      registration,
      listeners,
      profiles,
      caPem: ca.certPem,
      managerVersion: VERSION,
      catalog: loadedCatalog(),
      events,
    });
    const approvals = new Approvals(store, tablesFor(tables, 'accounts', 'approvals', 'clusters', 'commands', 'services'), clock, events);
    const hosts = new Hosts(store, tablesFor(tables, 'clusters', 'hosts'), clock, events);
    const releaseKeys = new ReleaseKeys(store, tablesFor(tables, 'mirror'), keyring, clock);
    const hostCommands = new HostCommands(
      store,
      tablesFor(tables, 'commands', 'hostMetrics', 'hosts'),
      hosts,
      keyring,
      clock,
      commands,
      events,
      profiles,
    );
    // Plans that only check: no four eyes, as a drift scan or a journal read.
    profiles.observeHostTlsWith(
      hostTlsObserver({
        installed: (clusterId) => tables.services.list(clusterId),
        host: (id) => tables.hosts.get(id),
        descriptor: (service) => loadedCatalog()?.service(service),
        issuePlan: (hostId, args, actor) => hostCommands.issuePlan(hostId, args, actor, { allowFourEyes: true }),
        waitEnded: (ids, timeoutMs) => hostCommands.waitEnded(ids, timeoutMs),
        command: (id) => tables.commands.get(id),
      }),
    );
    const lifecycle = new Lifecycle({
      store,
      tables: tablesFor(tables, 'clusters', 'commands'),
      clock,
      commands,
      profiles,
      preflight,
      approvals,
      events,
    });
    const certificates = new Certificates({ store, protector, clock });
    const services = new Services({
      certificates,
      store,
      tables: tablesFor(tables, 'commands', 'hosts', 'reports', 'serviceBackups', 'services'),
      clock,
      catalog: loadedCatalog,
      hosts,
      hostCommands,
      lifecycle,
      events,
    });
    const drift = new Drift({
      store,
      tables: tablesFor(tables, 'clusters', 'commands', 'drift', 'hosts', 'services'),
      clock,
      hosts,
      hostCommands,
      services,
      events,
    });
    const serviceBackups = new ServiceBackups({
      store,
      tables: tablesFor(tables, 'hosts', 'serviceBackups', 'services'),
      clock,
      catalog: loadedCatalog,
      hosts,
      services,
      lifecycle,
      events,
    });
    serviceBackups.resume();
    const mirror = new MirrorService({
      store,
      tables: tablesFor(tables, 'mirror', 'reports'),
      clock,
      events,
      releaseKeys,
      ed25519,
      catalog: loadedCatalog,
      importDir: join(opts.dataDir, IMPORT_DIR),
    });
    return {
      dataDir: opts.dataDir,
      mode: opts.mode,
      version: VERSION,
      clock,
      ed25519,
      store,
      tables,
      accounts,
      clusters: new Clusters(store, tablesFor(tables, 'clusterAccess', 'clusters', 'commands', 'hosts', 'keys', 'services'), clock, events),
      registration,
      agentIdentities: new AgentIdentities(store, tablesFor(tables, 'clusterAccess', 'clusters', 'keys'), ca, keyring, clock, events),
      commands,
      listeners,
      profiles,
      preflight,
      approvals,
      lifecycle,
      fourEyes: new FourEyesActs({ store, tables: tablesFor(tables, 'accounts', 'clusters', 'hosts', 'keys'), approvals, events }),
      syslog,
      hosts,
      hostIdentities: new HostIdentities(store, tablesFor(tables, 'hosts'), hosts, ca, keyring, clock, VERSION, events),
      hostCommands,
      services,
      certificates,
      serviceBackups,
      drift,
      sheets: new ServiceSheets({
        tables: tablesFor(tables, 'clusters', 'hostMetrics', 'hosts'),
        clock,
        catalog: loadedCatalog,
        services,
        drift,
        commands,
        hostCommands,
      }),
      support: new SupportArchives({
        store,
        tables: tablesFor(tables, 'accounts', 'hosts', 'services'),
        clock,
        hosts,
        hostCommands,
        services,
        drift,
        events,
        catalog: loadedCatalog,
        dataDir: opts.dataDir,
        secrets: (clusterId) => {
          const access = registration.access(clusterId);
          return access ? [access.token] : [];
        },
      }),
      catalog,
      releaseKeys,
      mirror,
      backups: new Backups({
        store,
        tables: tablesFor(tables, 'clusters', 'commands', 'lifecycle'),
        registration,
        clock,
        dataDir: opts.dataDir,
        events,
      }),
      audit: new AuditTrail(store.audit),
      settings: new ConsoleSettings({ store, tables: tablesFor(tables, 'settings'), clock, syslogStatus: () => syslog.status() }),
      keyring,
      ca,
      protector,
      events,
      reports: new Reports({
        store,
        tables: tablesFor(tables, 'clusterAccess', 'clusters', 'commands', 'keys', 'reports'),
        keyring,
        registration,
        clock,
        events,
        caPem: ca.certPem,
        managerVersion: VERSION,
        preflight,
        listeners,
        services: {
          checkAll: (clusterId, actor) => services.checkAll(clusterId, actor),
          fetched: (clusterId, service) => services.fetched(clusterId, service),
          catalog: loadedCatalog,
        },
      }),
      close: () => {
        serviceBackups.close();
        services.close();
        void syslog.stop();
        store.close();
      },
    };
  } catch (error) {
    store.close();
    throw error;
  }
}
