// A host's node agent identity, issued exactly as a cluster agent's: a client certificate from the manager CA
// (CN and URI SAN urn:navin:host:<id>; the previous one revoked at once), its private key handed out once and
// never stored, the CA, manager.pem and the agent config signed by the manager; plus the commands that install
// the Debian package and the identity on the host.
import type { Tables } from '../domain-tables';
import type { Clock } from '../clock';
import type { CertificateAuthority } from '../keys/ca';
import type { Keyring } from '../keys/keyring';
import type { Store } from '../store/store';
import type { CoreEvents } from '../events';
import { agentConnection, agentTrust, type AgentConnectionRequest } from '../clusters/agent-identity';
import { signDocument } from '../../wire/envelope';
import type { HostIdentity } from '../../contract/hosts';
import { identityFileNames } from '../../contract/kubernetes';
import {
  DEFAULT_MANAGED_ROOTS,
  hostUri,
  NODE_AGENT_IDENTITY_DIR,
  NODE_AGENT_PACKAGE,
  NODE_AGENT_UNIT,
  type NodeAgentConfigBody,
} from '../../wire/node-agent';
import type { Hosts } from './hosts';

export const NODE_AGENT_DEFAULTS = {
  offline_after_s: 120,
  redelivery_s: 15,
  long_poll_s: 30,
  clock_skew_s: 30,
  report_interval_s: 60,
} as const;

export type { HostIdentity };

/** The package file name of a version, as the build writes it. */
export const packageFile = (version: string): string => `${NODE_AGENT_PACKAGE}_${version}_amd64.deb`;

export class HostIdentities {
  constructor(
    private readonly store: Store,
    private readonly tables: Tables<'hosts'>,
    private readonly hosts: Hosts,
    private readonly ca: CertificateAuthority,
    private readonly keyring: Keyring,
    private readonly clock: Clock,
    private readonly version: string,
    private readonly events: CoreEvents,
  ) {}

  /** beforeCommit runs in the issue's transaction (a four-eyes approval of a re-issue spent with it). */
  issue(hostId: string, request: AgentConnectionRequest, actor: string, beforeCommit?: () => void): HostIdentity {
    const host = this.hosts.get(hostId);
    const { gateway, server_name, offline_after_s } = agentConnection(request, NODE_AGENT_DEFAULTS.offline_after_s);
    const identity = this.store.tx(() => {
      const cluster = this.hosts.hostsCluster(host.cluster_id);
      const now = this.clock.now().toISOString();
      const revoked = this.tables.hosts.revokeCertificates(hostId, now);
      const cert = this.ca.issueHostClient(cluster.id, hostUri(hostId));
      this.tables.hosts.bindCertificate(cert.serial, hostId);
      const body: Omit<NodeAgentConfigBody, 'key_id'> = {
        type: 'agent-config',
        v: 1,
        agent: 'node',
        host_id: hostId,
        host_name: host.name,
        cluster_id: cluster.id,
        target: hostId,
        tenant: cluster.tenant,
        ...agentTrust(this.keyring, { gateway, server_name }, cert.serial, now),
        managed_roots: [...DEFAULT_MANAGED_ROOTS],
        ...NODE_AGENT_DEFAULTS,
        offline_after_s,
      };
      const config = signDocument(body, this.keyring.active());
      this.store.audit.append({
        actor,
        action: 'host.identity_issue',
        cluster_id: cluster.id,
        target: host.name,
        details: { host_id: hostId, serial: cert.serial, gateway_url: gateway.origin, revoked_serials: revoked },
      });
      beforeCommit?.();
      const deb = packageFile(this.version);
      return {
        host_id: hostId,
        serial: cert.serial,
        not_after: cert.notAfter.toISOString(),
        revoked_serials: revoked,
        files: {
          'config.json': `${JSON.stringify(config, null, 2)}\n`,
          'manager.pem': this.keyring.managerPem(),
          'tls.crt': cert.certPem,
          'tls.key': cert.keyPem,
          'ca.crt': this.ca.certPem,
        },
        config,
        identity_dir: NODE_AGENT_IDENTITY_DIR,
        package_file: deb,
        install_commands: [
          `apt-get install ./${deb}`,
          `install -d -m 0700 ${NODE_AGENT_IDENTITY_DIR}`,
          `install -m 0600 ${identityFileNames.join(' ')} ${NODE_AGENT_IDENTITY_DIR}/`,
          `systemctl enable --now ${NODE_AGENT_UNIT}`,
        ],
      };
    });
    this.events.emit('host.changed', { id: hostId, cluster_id: host.cluster_id });
    return identity;
  }
}
