// The phases of a certificates renewal, from the real catalog: one host at a time, a new key made beside the one in
// use and its CSR, then the certificate written, the key moved over the old one, the service restarted, and this
// host's liveness and the cluster's readiness before the next host; only the hosts due; refused without TLS.
import { describe, expect, it } from 'vitest';
import { loadBuiltinCatalog } from '../../../../main/core/catalog/catalog-builtin';
import type { CoreError } from '../../../../main/core/errors';
import { RENEWAL_ACTION, renewalPhases, stagedKeyPath, supersedesAfter } from '../../../../main/core/services/renewal-plan';
import { resolve, STARTUP_GRACE_S, type PlanInput } from '../../../../main/core/services/service-plan';
import { CERTIFICATES_PHASE, withCertificates } from '../../../../main/core/services/service-tls';
import { DEFAULT_MANAGED_ROOTS, isManagedUnit } from '../../../../main/wire/node-agent';
import { planProblem, type PlanTask } from '../../../../main/wire/plan';

const load = loadBuiltinCatalog();
if (!load.ok) throw new Error('the built-in catalog is invalid');
const catalog = load.catalog;

const hosts = ['a', 'b', 'c'].map((n, i) => ({ id: `id-${n}`, name: `host-${n}`, address: `198.18.5.${i + 10}`, architecture: 'amd64' }));
const input = (over: Partial<PlanInput> = {}): PlanInput => ({
  catalog,
  clusterId: '0123456789abcdef',
  service: 'etcd',
  version: '3.4.23-1',
  hosts,
  settings: {},
  mirror: { url: 'https://mirror.example:5000/team', ca_pem: null },
  tls: { tls: true, certificates: false },
  ...over,
});
const ids = (tasks: PlanTask[]): string[] => tasks.map((t) => t.id);
const task = (tasks: PlanTask[], id: string): any => tasks.find((t) => t.id === id);

describe('a certificates renewal', () => {
  it('walks the hosts one at a time: a CSR phase, then the switch on that host alone, then the functional test', () => {
    const phases = renewalPhases(input(), ['id-a', 'id-b', 'id-c']);
    expect(phases.map((p) => p.name)).toEqual([
      CERTIFICATES_PHASE,
      'renew on host-a',
      CERTIFICATES_PHASE,
      'renew on host-b',
      CERTIFICATES_PHASE,
      'renew on host-c',
      'readiness and functional test',
    ]);
    // One host per phase, in the service's order: never two members restarted at once.
    expect(phases.slice(0, 6).map((p) => p.plans.map((x) => x.host_id))).toEqual([
      ['id-a'],
      ['id-a'],
      ['id-b'],
      ['id-b'],
      ['id-c'],
      ['id-c'],
    ]);
    for (const phase of phases) for (const p of phase.plans) expect(planProblem(p.args, DEFAULT_MANAGED_ROOTS, isManagedUnit)).toBeNull();
  });

  it('makes a new key beside the one in use (rotate), for the names the manager knows of the host', () => {
    const [csr] = renewalPhases(input(), ['id-b']);
    const t = csr!.plans[0]!.args.tasks[0] as any;
    const inst = resolve(input()).instances[1]!;
    expect(t).toMatchObject({
      id: 'csr',
      kind: 'tls.csr',
      key_path: '/etc/navin/etcd/tls/tls.key.next',
      rotate: true,
      common_name: 'etcd.host-b',
      dns_names: ['host-b'],
      ip_addresses: ['198.18.5.11'],
    });
    expect(t.key_path).toBe(stagedKeyPath(inst));
    expect(t.key_path).not.toBe(inst.ctx.tls.key_file);
  });

  it('switches in order: the certificate and CA, the key moved over the old one and recorded, a restart, then liveness and readiness with time to rejoin', () => {
    const phases = renewalPhases(input(), ['id-a']);
    const tasks = phases[1]!.plans[0]!.args.tasks;
    expect(ids(tasks)).toEqual([
      'write:tls-cert',
      'write:tls-ca',
      'move-key',
      'adopt-key',
      'forget-staged-key',
      'restart',
      'liveness',
      'readiness',
      'watch',
    ]);
    expect(task(tasks, 'move-key').argv).toEqual(['mv', '-f', '/etc/navin/etcd/tls/tls.key.next', '/etc/navin/etcd/tls/tls.key']);
    // The key in place is recorded as the one the agent wrote (kept, not made again), the staged path forgotten.
    expect(task(tasks, 'adopt-key')).toMatchObject({ kind: 'tls.csr', key_path: '/etc/navin/etcd/tls/tls.key', rotate: false });
    expect(task(tasks, 'forget-staged-key')).toMatchObject({ kind: 'file.remove', path: '/etc/navin/etcd/tls/tls.key.next' });
    // A restart: the key reaches etcd through LoadCredential=, copied when the unit starts.
    expect(task(tasks, 'restart')).toMatchObject({ kind: 'systemd.restart', unit: 'navin-etcd.service' });
    for (const id of ['liveness', 'readiness']) {
      expect(task(tasks, id).retry_for_s).toBe(STARTUP_GRACE_S);
      expect(task(tasks, id).check.params.tls).toMatchObject({ cert_file: '/etc/navin/etcd/tls/tls.crt' });
    }
    // The files are written from what the manager signed, for this host only.
    const signed = withCertificates(phases[1]!.plans, { ca_pem: 'CA', hosts: new Map([['id-a', 'CERT-A']]) });
    expect(task(signed[0]!.args.tasks, 'write:tls-cert').content).toBe('CERT-A');
    expect(task(signed[0]!.args.tasks, 'write:tls-ca').content).toBe('CA');
  });

  it('renews only the hosts whose certificates are due, and touches no other', () => {
    const phases = renewalPhases(input(), ['id-c']);
    expect(phases.map((p) => p.name)).toEqual([CERTIFICATES_PHASE, 'renew on host-c', 'readiness and functional test']);
    expect(phases.slice(0, 2).flatMap((p) => p.plans.map((x) => x.host_id))).toEqual(['id-c', 'id-c']);
  });

  it('is refused for a service without TLS, and for no host at all', () => {
    expect(() => renewalPhases(input({ tls: { tls: false, certificates: false } }), ['id-a'])).toThrow(
      expect.objectContaining({ code: 'conflict' }) as unknown as CoreError,
    );
    expect(() => renewalPhases(input(), ['id-unknown'])).toThrow(
      expect.objectContaining({ code: 'invalid_field' }) as unknown as CoreError,
    );
  });

  it("supersedes a host's old certificate after its switch, not after its CSR, and only in a renewal", () => {
    const phases = renewalPhases(input(), ['id-a']);
    expect(supersedesAfter(RENEWAL_ACTION, phases[0])).toBe(false);
    expect(supersedesAfter(RENEWAL_ACTION, phases[1])).toBe(true);
    expect(supersedesAfter('configuration', phases[1])).toBe(false);
  });
});
