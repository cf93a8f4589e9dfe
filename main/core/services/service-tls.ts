// TLS of a service on hosts: the certificates phase (each host makes the service's key and a CSR; the key never
// leaves the host), the certificate files the next phase writes, and the manager signing each CSR with the
// cluster's service CA in between. Which services run with TLS: the cluster's profile decides at the install.
import type { Certificates } from '../certificates/certificates';
import { CoreError, ValidationError } from '../errors';
import { sha256Hex } from '../catalog/catalog-templates';
import type { CatalogDescriptor } from '../catalog/catalog-schema';
import type { ProfileName } from '../clusters/profile-names';
import type { OperationPhase } from './services-tables';
import { isIpAddress } from '../../wire/certificate-names';
import type { PlanResult, PlanTask } from '../../wire/plan';
import type { Instance, PlanHost } from './service-plan';

/** The phase that makes the keys and CSRs, first of an operation that brings certificates. */
export const CERTIFICATES_PHASE = 'certificates';
const CSR_TASK = 'csr';
const CERT_TASK = 'write:tls-cert';
const CA_TASK = 'write:tls-ca';

/** The names the manager knows a host by, which its certificate carries (never the ones a CSR asks for). */
export function hostNames(host: Pick<PlanHost, 'name' | 'address'>): { dns_names: string[]; ip_addresses: string[] } {
  const ip = isIpAddress(host.address);
  const dns = ip || host.address === host.name ? [host.name] : [host.name, host.address];
  return { dns_names: dns, ip_addresses: ip ? [host.address] : [] };
}

/** On every host: the service's key made where it stays (root only), and a CSR for the host's names. */
export function certificatesPhase(desc: CatalogDescriptor, instances: Instance[], label: string): OperationPhase {
  return {
    name: CERTIFICATES_PHASE,
    plans: instances.map((inst) => ({
      host_id: inst.host.id,
      args: {
        title: `certificates of ${label} on ${inst.host.name}`,
        tasks: [
          {
            id: CSR_TASK,
            kind: 'tls.csr',
            title: `make the key of ${desc.service} and its certificate request`,
            key_path: inst.ctx.tls.key_file,
            common_name: `${desc.service}.${inst.host.name}`,
            ...hostNames(inst.host),
            // A key already on the host is kept (a realign, a configuration): a new certificate, the same key.
            rotate: false,
          },
        ],
      },
    })),
  };
}

const placeholder = (id: string, path: string, what: string): PlanTask => ({
  id,
  kind: 'file.write',
  title: `write ${path} (${what})`,
  path,
  content: '',
  sha256: sha256Hex(''),
  mode: '0644',
});

/**
 * The service's certificate and its CA's, beside the key: public files. Their content is the signed CSR of the
 * certificates phase, set when the plan is signed (withCertificates); until then the phase holds them empty.
 */
export function certificateWrites(inst: Instance): PlanTask[] {
  return [placeholder(CERT_TASK, inst.ctx.tls.cert_file, 'its certificate'), placeholder(CA_TASK, inst.ctx.tls.ca_file, 'the service CA')];
}

/** The files of an instance's TLS, which its uninstall removes with the others. */
export function tlsFiles(inst: Instance): { name: string; path: string }[] {
  const { enabled, key_file, cert_file, ca_file } = inst.ctx.tls;
  if (!enabled) return [];
  return [
    { name: 'tls-key', path: key_file },
    { name: 'tls-cert', path: cert_file },
    { name: 'tls-ca', path: ca_file },
  ];
}

/** What the services need of the certificates domain: signing a host's CSR, its ledger, what is due for renewal. */
export type ServiceCertificates = Pick<Certificates, 'issue' | 'inUse' | 'supersede' | 'revoke' | 'dueForRenewal'>;

/**
 * After an operation that brought certificates ended well, each host's newest certificate stands and the ones
 * it replaced are superseded (still valid until they expire, no longer renewed).
 */
export function supersedeReplaced(certificates: ServiceCertificates, clusterId: string, service: string): void {
  const newest = new Map<string, string>();
  const inUse = certificates.inUse(clusterId, service);
  for (const c of inUse) if (c.host_id) newest.set(c.host_id, c.serial);
  for (const c of inUse) if (c.host_id && newest.get(c.host_id) !== c.serial) certificates.supersede(c.serial, newest.get(c.host_id)!);
}

/** An uninstall's end: the service's certificates are revoked with their files gone. */
export function revokeAll(certificates: ServiceCertificates, clusterId: string, service: string): void {
  for (const c of certificates.inUse(clusterId, service)) certificates.revoke(c.serial, 'manager');
}

/** The certificates a certificates phase ended with: the CA's and each host's, by host id. */
export interface SignedCertificates {
  ca_pem: string;
  hosts: Map<string, string>;
}

/**
 * Signs the CSR each host of a certificates phase returned, for the names the manager knows of the host. A CSR
 * missing or refused fails the operation on that host, with the signing's code.
 */
export function signCertificates(
  d: { certificates: ServiceCertificates; hosts: { get(id: string): { name: string; address: string } } },
  op: { cluster_id: string; service: string },
  plans: { host_id: string; command?: { result: unknown } }[],
): { ok: true; signed: SignedCertificates } | { ok: false; host_id: string; code: string; message: string } {
  let ca_pem = '';
  const hosts = new Map<string, string>();
  for (const p of plans) {
    const host = d.hosts.get(p.host_id);
    const task = ((p.command?.result as Partial<PlanResult> | null)?.tasks ?? []).find((t) => t.id === CSR_TASK);
    const csr = task?.output?.csr_pem;
    if (typeof csr !== 'string')
      return { ok: false, host_id: p.host_id, code: 'csr_invalid', message: `the agent of ${host.name} returned no certificate request` };
    try {
      const issued = d.certificates.issue({
        clusterId: op.cluster_id,
        hostId: p.host_id,
        service: op.service,
        csrPem: csr,
        hostName: host.name,
        addresses: [host.address],
        actor: 'manager',
      });
      hosts.set(p.host_id, issued.cert_pem);
      ca_pem = issued.ca_pem;
    } catch (error) {
      if (!(error instanceof CoreError)) throw error;
      return { ok: false, host_id: p.host_id, code: error.code, message: `the certificate request of ${host.name}: ${error.message}` };
    }
  }
  return { ok: true, signed: { ca_pem, hosts } };
}

/** A phase's plans with the signed certificates written into their certificate files (each host its own). */
export function withCertificates(plans: OperationPhase['plans'], signed: SignedCertificates | null): OperationPhase['plans'] {
  if (!signed) return plans;
  return plans.map((p) => {
    const cert = signed.hosts.get(p.host_id);
    const tasks = p.args.tasks.map((t): PlanTask => {
      if (t.kind !== 'file.write' || (t.id !== CERT_TASK && t.id !== CA_TASK)) return t;
      const content = t.id === CA_TASK ? signed.ca_pem : cert;
      if (content === undefined) throw new CoreError('internal', `no certificate was signed for host ${p.host_id}`);
      return { ...t, content, sha256: sha256Hex(content) };
    });
    return { ...p, args: { ...p.args, tasks } };
  });
}

/** How a service runs and what its operation brings: TLS, and the certificates phase first. */
export interface TlsChoice {
  tls: boolean;
  certificates: boolean;
}

/**
 * Whether an operation runs the service with TLS, and brings certificates first. An install chooses: with TLS
 * when the service supports it, unless the cluster's profile is development and TLS was not asked for (plaintext
 * elsewhere is refused). Later operations keep what the install chose, read from the certificates in use; a
 * realign writes them again, a configuration brings them to the hosts that have none.
 */
export function tlsChoice(
  desc: CatalogDescriptor,
  action: string,
  ctx: { profile: ProfileName; asked?: boolean; hostIds: string[]; inUse: () => readonly { host_id: string | null }[] },
): TlsChoice {
  if (!desc.supports_tls) {
    if (ctx.asked === true) throw new ValidationError('tls', `${desc.service} does not support TLS`);
    return { tls: false, certificates: false };
  }
  if (action === 'install') {
    if (ctx.asked === false && ctx.profile !== 'development')
      throw new ValidationError('tls', `the ${ctx.profile} profile runs every service with TLS: plaintext only under development`);
    const tls = ctx.asked ?? ctx.profile !== 'development';
    return { tls, certificates: tls };
  }
  const holders = new Set(ctx.inUse().map((c) => c.host_id));
  if (holders.size === 0) return { tls: false, certificates: false };
  const missing = ctx.hostIds.some((id) => !holders.has(id));
  return { tls: true, certificates: action === 'realign' || (action === 'configuration' && missing) };
}
