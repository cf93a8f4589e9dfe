// The agent identity of a cluster: a client certificate from the manager CA (the previous one revoked at once),
// its private key handed out once and never stored, and the agent config signed by the manager.
import type { Tables } from '../domain-tables';
import type { Clock } from '../clock';
import type { CoreEvents } from '../events';
import { CoreError, ValidationError } from '../errors';
import { urlField } from '../net/url-field';
import type { CertificateAuthority } from '../keys/ca';
import type { Keyring } from '../keys/keyring';
import type { Store } from '../store/store';
import { signDocument } from '../../wire/envelope';
import type { AgentIdentity } from '../../contract/kubernetes';
import { toBase64url } from '../../wire/encoding';
import { AGENT_IDENTITY_SECRET, DEFAULT_NAMESPACE, IDENTITY_FILES } from '../kubernetes/names';

export const AGENT_DEFAULTS = {
  lease_duration_s: 15,
  offline_after_s: 120,
  redelivery_s: 15,
  long_poll_s: 30,
  clock_skew_s: 30,
} as const;

export type { AgentIdentity };

/** Parses and checks a gateway URL: https, a host, a port, nothing else. */
export function checkGatewayUrl(input: unknown): URL {
  const url = urlField('gateway_url', input, 'https://manager.example:8462');
  if (url.protocol !== 'https:') throw new ValidationError('gateway_url', 'gateway_url must use https:// (the gateway only speaks mTLS)');
  if (!url.hostname) throw new ValidationError('gateway_url', 'gateway_url needs a host');
  if (url.username || url.password) throw new ValidationError('gateway_url', 'gateway_url must not carry credentials');
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
    throw new ValidationError('gateway_url', 'gateway_url is scheme, host and port only (no path, query or fragment)');
  return url;
}

/** How an identity's agent reaches the manager, as a request gives it (its types and the delay's range are the contract's). */
export interface AgentConnectionRequest {
  gateway_url: string;
  server_name?: string;
  offline_after_s?: number;
}

/**
 * An identity request's connection, checked: the gateway's URL, the TLS name the agent expects of it (the URL's
 * host unless given) and how long without contact the agent is offline (`offlineDefault` unless given).
 */
export function agentConnection(
  request: AgentConnectionRequest,
  offlineDefault: number,
): { gateway: URL; server_name: string; offline_after_s: number } {
  const gateway = checkGatewayUrl(request.gateway_url);
  const { server_name, offline_after_s = offlineDefault } = request;
  if (server_name !== undefined && !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(server_name))
    throw new ValidationError('server_name', 'server_name is a DNS name');
  return { gateway, server_name: server_name || gateway.hostname.replace(/^\[|\]$/g, ''), offline_after_s };
}

/**
 * What an agent config says of the gateway it reaches and the keys and certificate it trusts and is known by,
 * alike for a cluster agent and a node agent.
 */
export function agentTrust(
  keyring: Keyring,
  connection: { gateway: URL; server_name: string },
  certificateSerial: string,
  issuedAt: string,
) {
  const trusted = keyring.trusted();
  return {
    gateway_url: connection.gateway.origin,
    server_name: connection.server_name,
    trusted_key_ids: [...trusted.keys()],
    trusted_keys: Object.fromEntries([...trusted].map(([id, pub]) => [id, toBase64url(pub)])),
    client_certificate_serial: certificateSerial,
    issued_at: issuedAt,
  };
}

export class AgentIdentities {
  constructor(
    private readonly store: Store,
    private readonly tables: Tables<'clusterAccess' | 'clusters' | 'keys'>,
    private readonly ca: CertificateAuthority,
    private readonly keyring: Keyring,
    private readonly clock: Clock,
    private readonly events: CoreEvents,
  ) {}

  /** beforeCommit runs in the issue's transaction (a four-eyes approval of a re-issue spent with it). */
  issue(
    clusterId: string,
    gatewayUrl: string,
    actor: string,
    serverName?: string,
    offlineAfter?: number,
    beforeCommit?: () => void,
  ): AgentIdentity {
    const cluster = this.tables.clusters.get(clusterId);
    if (!cluster) throw new CoreError('not_found', `cluster ${JSON.stringify(clusterId)} not found`);
    if (cluster.kind === 'hosts')
      throw new CoreError(
        'cluster_kind_mismatch',
        'a hosts cluster has no cluster agent: issue each host its node agent identity (POST /api/v1/hosts/{host_id}/agent)',
      );
    const { gateway, server_name, offline_after_s } = agentConnection(
      { gateway_url: gatewayUrl, server_name: serverName, offline_after_s: offlineAfter },
      AGENT_DEFAULTS.offline_after_s,
    );
    const namespace = this.tables.clusterAccess.access(clusterId)?.namespace ?? DEFAULT_NAMESPACE;
    const identity = this.store.tx(() => {
      const now = this.clock.now().toISOString();
      const revoked = this.tables.keys.revokeClientCertificates(clusterId, now);
      const cert = this.ca.issueClient(clusterId);
      const signer = this.keyring.active();
      const config = signDocument(
        {
          type: 'agent-config',
          v: 1,
          cluster_id: clusterId,
          target: clusterId,
          tenant: cluster.tenant,
          namespace,
          ...agentTrust(this.keyring, { gateway, server_name }, cert.serial, now),
          ...AGENT_DEFAULTS,
          offline_after_s,
        },
        signer,
      );
      this.store.audit.append({
        actor,
        action: 'agent.identity_issue',
        cluster_id: clusterId,
        target: cert.serial,
        details: { gateway_url: gateway.origin, revoked_serials: revoked },
      });
      beforeCommit?.();
      const configJson = `${JSON.stringify(config, null, 2)}\n`;
      return {
        cluster_id: clusterId,
        serial: cert.serial,
        not_after: cert.notAfter.toISOString(),
        revoked_serials: revoked,
        files: {
          'config.json': configJson,
          'manager.pem': this.keyring.managerPem(),
          'tls.crt': cert.certPem,
          'tls.key': cert.keyPem,
          'ca.crt': this.ca.certPem,
        },
        config,
        secret_command: `kubectl -n ${namespace} create secret generic ${AGENT_IDENTITY_SECRET} ${IDENTITY_FILES.map((f) => `--from-file=${f}=${f}`).join(' ')}`,
      };
    });
    this.events.emit('cluster.changed', { id: clusterId });
    return identity;
  }
}
