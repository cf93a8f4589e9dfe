// The acceptance lines about the cluster agent: agent.mtls (what the gateway recorded of the agent, and a
// handshake made now proving the gateway demands a client certificate of the manager CA) and agent.config
// (the certificate the agent presents is the cluster's current identity, and the key behind its config is
// still trusted).
import type { Tables } from '../domain-tables';
import type { Clock } from '../clock';
import type { Keyring } from '../keys/keyring';
import type { CertificateRecord, SigningKeyRecord } from '../keys/keys-tables';
import { CONNECTED_WITHIN_MS } from '../clusters/agent-status';
import { normalizeSerial } from '../gateway/gateway';
import { probeGateway, type GatewayAddress, type ProbeResult } from '../checks/gateway-probe';
import type { Bilingual } from '../../contract/bilingual';
import { TEXT } from './line-texts';
import { type Evidence, type LineStatus, type ReportLine } from '../../contract/check-types';

export interface AgentCheckDeps {
  tables: Tables<'commands' | 'keys'>;
  keyring: Keyring;
  clock: Clock;
  caPem: string;
  gateway: GatewayAddress | undefined;
}

const ageSeconds = (clock: Clock, iso: string): number => Math.round((clock.now().getTime() - new Date(iso).getTime()) / 1000);

/** Why a probe shows the gateway does not enforce mTLS as required, or null when it does. */
function probeProblem(p: ProbeResult): Bilingual | null {
  if (p.error) return TEXT.probeFailed(p.error);
  if (p.request_answered) return TEXT.gatewayAnswered(p.http_status, p.client_certificate === 'none');
  if (p.handshake_completed && !p.server_certificate_trusted) return TEXT.gatewayUntrusted;
  if (p.tls_version && !/^TLSv1\.[23]$/.test(p.tls_version)) return TEXT.oldTls(p.tls_version);
  if (!p.refusal) return TEXT.noRefusal;
  return null;
}

export async function agentMtlsLine(clusterId: string, deps: AgentCheckDeps): Promise<ReportLine> {
  const title = TEXT.mtlsTitle;
  const ran_at = deps.clock.now().toISOString();
  const record = deps.tables.commands.agentStatus(clusterId);
  const connected = !!record && deps.clock.now().getTime() - new Date(record.last_seen).getTime() <= CONNECTED_WITHIN_MS;
  const observed = {
    gateway_record: record
      ? {
          last_seen: record.last_seen,
          age_s: ageSeconds(deps.clock, record.last_seen),
          connected_window_s: CONNECTED_WITHIN_MS / 1000,
          certificate_serial: record.certificate_serial,
          leader_replica: record.leader_replica,
          agent_version: record.agent_version,
        }
      : { last_seen: null, connected_window_s: CONNECTED_WITHIN_MS / 1000 },
  };
  const reasons: Bilingual[] = [];
  let status: LineStatus = 'PASS';
  if (!record) {
    status = 'FAIL';
    reasons.push(TEXT.neverConnected);
  } else if (!connected) {
    status = 'FAIL';
    reasons.push(TEXT.lastSeenLongAgo(record.last_seen, CONNECTED_WITHIN_MS / 1000));
  }

  let probes: ProbeResult[] | null = null;
  let method = 'read the gateway record of the agent (agent_status)';
  if (!deps.gateway) {
    if (status === 'PASS') status = 'BLOCKED';
    reasons.push(TEXT.gatewayUnknown);
  } else {
    const g = deps.gateway;
    method += `; TLS handshakes to ${g.host}:${g.port} (server name ${g.serverName}) trusting the manager CA only, with no client certificate and then with a certificate of another CA, each followed by GET ${'/v1/cluster-agent/commands?wait=0'}`;
    probes = [await probeGateway(g, deps.caPem, 'none'), await probeGateway(g, deps.caPem, 'foreign-ca')];
    for (const p of probes) {
      const problem = probeProblem(p);
      if (problem) {
        status = 'FAIL';
        reasons.push(problem);
      }
    }
  }
  const evidence: Evidence = { method, at: ran_at, ...observed };
  if (probes) {
    const first = probes[0]!;
    evidence.gateway_tls = {
      tls_version: first.tls_version,
      cipher: first.cipher,
      server_certificate: first.server_certificate,
      server_certificate_trusted: first.server_certificate_trusted,
    };
    evidence.probes = probes.map((p) => ({
      target: p.target,
      client_certificate: p.client_certificate,
      handshake_completed: p.handshake_completed,
      request_answered: p.request_answered,
      http_status: p.http_status,
      refusal: p.refusal,
      error: p.error,
      duration_ms: p.duration_ms,
    }));
  }
  if (reasons.length) evidence.reason = joinReasons(reasons);
  return { id: 'agent.mtls', title, status, evidence, ran_at };
}

export function joinReasons(reasons: readonly Bilingual[]): Bilingual {
  return { en: reasons.map((r) => r.en).join('; '), fr: reasons.map((r) => r.fr).join(' ; ') };
}

/**
 * The key that signed a config issued at `issuedAt`: the agent config carries no copy in the store, so it is
 * derived from the key history — the newest key created by then and not yet retired (the keyring's rule).
 */
function keyActiveAt(keys: readonly SigningKeyRecord[], issuedAt: string): SigningKeyRecord | undefined {
  const t = new Date(issuedAt).getTime();
  const live = keys.filter((k) => new Date(k.created_at).getTime() <= t && (k.retired_at === null || new Date(k.retired_at).getTime() > t));
  return live[live.length - 1];
}

export function agentConfigLine(clusterId: string, deps: AgentCheckDeps): ReportLine {
  const title = TEXT.configTitle;
  const ran_at = deps.clock.now().toISOString();
  const method =
    "compare the certificate serial the agent presented to the gateway with the cluster's certificates (store), and the signing key of its config with the keys trusted now (keyring)";
  const record = deps.tables.commands.agentStatus(clusterId);
  const clientCerts = deps.tables.keys
    .certificatesOf(clusterId)
    .filter((c) => c.kind === 'client')
    .sort((a, b) => a.issued_at.localeCompare(b.issued_at));
  const latest: CertificateRecord | undefined = clientCerts[clientCerts.length - 1];
  const presented = record?.certificate_serial ?? null;
  const evidence: Evidence = {
    method,
    at: ran_at,
    presented_serial: presented,
    latest_client_certificate: latest
      ? { serial: latest.serial, issued_at: latest.issued_at, not_after: latest.not_after, revoked_at: latest.revoked_at }
      : null,
    client_certificates_issued: clientCerts.length,
  };
  if (!latest) {
    evidence.reason = TEXT.noIdentity;
    return { id: 'agent.config', title, status: 'FAIL', evidence, ran_at };
  }
  const trusted = deps.keyring.trusted();
  const keys = deps.tables.keys.signingKeys();
  const signer = keyActiveAt(keys, latest.issued_at);
  const active = deps.keyring.active().keyId;
  const activeRecord = keys.find((k) => k.key_id === active);
  // The agent trusts the keys listed in its config: those live when it was issued.
  const activeKnownToAgent = !!activeRecord && new Date(activeRecord.created_at).getTime() <= new Date(latest.issued_at).getTime();
  evidence.config_signing_key = signer
    ? {
        key_id: signer.key_id,
        derived_from: `the key active at the identity's issue time ${latest.issued_at}`,
        trusted_now: trusted.has(signer.key_id),
        retired_at: signer.retired_at,
      }
    : null;
  evidence.active_signing_key = { key_id: active, listed_in_agent_config: activeKnownToAgent };

  const reasons: Bilingual[] = [];
  let status: LineStatus = 'PASS';
  if (latest.revoked_at !== null) {
    status = 'FAIL';
    reasons.push(TEXT.certificateRevoked(latest.serial, latest.revoked_at));
  } else if (new Date(latest.not_after) < deps.clock.now()) {
    status = 'FAIL';
    reasons.push(TEXT.certificateExpired(latest.serial, latest.not_after));
  }
  if (!signer || !trusted.has(signer.key_id)) {
    status = 'FAIL';
    reasons.push(TEXT.signerNotTrusted(signer?.key_id));
  }
  if (!activeKnownToAgent) {
    status = 'FAIL';
    reasons.push(TEXT.activeKeyUnlisted(active));
  }
  if (presented === null) {
    if (status === 'PASS') status = 'BLOCKED';
    reasons.push(TEXT.neverPresented);
  } else if (normalizeSerial(presented) !== normalizeSerial(latest.serial)) {
    status = 'FAIL';
    reasons.push(TEXT.otherCertificate(presented, latest.serial));
  }
  if (reasons.length) evidence.reason = joinReasons(reasons);
  return { id: 'agent.config', title, status, evidence, ran_at };
}
