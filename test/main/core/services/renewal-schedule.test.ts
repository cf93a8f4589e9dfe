// The renewal schedule on real certificates and a real ledger, its clock moved by hand: nothing before two thirds
// of a certificate's life, one renewal per service once past it (the hosts due named), none while an operation
// runs on the service, a failed or refused renewal tried again only after a backoff that doubles, saying why.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Certificates } from '../../../../main/core/certificates/certificates';
import { CoreError } from '../../../../main/core/errors';
import type { Tables } from '../../../../main/core/domain-tables';
import { RENEWAL_ACTION } from '../../../../main/core/services/renewal-plan';
import { RENEWAL_BACKOFF_MS, RenewalSchedule, renewalBackoffMs } from '../../../../main/core/services/renewal-schedule';
import { ServicesTables } from '../../../../main/core/services/services-tables';
import type { Store } from '../../../../main/core/store/store';
import { ManualClock } from '../../../support/clock';
import { tempDir } from '../../../support/temp-dir';
import { addCluster, addHost, openCertificatesStore, opensslCsr, testProtector } from '../certificates/certificates-fixture';

const DAY = 86_400_000;
const dir = tempDir('navin-renewal-schedule-');
afterAll(() => dir.remove());

let clock: ManualClock;
let store: Store;
let services: ServicesTables;
let certificates: Certificates;
let cluster: string;
let hosts: string[];
let started: { cluster: string; service: string; hosts: string[] }[];
let refuse: CoreError | null;
let schedule: RenewalSchedule;
let service: string;

function issue(host: string): string {
  const { csrPem } = opensslCsr(dir.path);
  return certificates.issue({ clusterId: cluster, hostId: host, service, csrPem, hostName: 'h', addresses: ['198.18.5.10'], actor: 'test' })
    .certificate.serial;
}

/** An operation of the service as the services record it, ended `state` now. */
function operation(action: string, state: 'running' | 'succeeded' | 'failed', message = 'task restart failed on h'): string {
  const id = randomUUID();
  services.insertOperation({
    id,
    cluster_id: cluster,
    service,
    action: action as typeof RENEWAL_ACTION,
    version: '3.4.23-1',
    phases: [],
    requested_by: 'manager',
    created_at: clock.now().toISOString(),
  });
  if (state !== 'running')
    services.finishOperation(
      id,
      state,
      state === 'failed' ? 'plan_failed' : null,
      state === 'failed' ? message : null,
      clock.now().toISOString(),
    );
  return id;
}

// One store and one cluster (its service CA is seconds of RSA work): each test renews a service of its own, with
// every certificate of the tests before revoked.
beforeAll(() => {
  clock = new ManualClock();
  store = openCertificatesStore(join(dir.path, 'ledger.db'), clock);
  services = new ServicesTables(store.db);
  certificates = new Certificates({ store, protector: testProtector(), clock });
  cluster = addCluster(store, 'edge');
  hosts = ['a', 'b', 'c'].map((n, i) => addHost(store, cluster, `host-${n}`, `198.18.5.${10 + i}`));
  certificates.serviceCa(cluster, 'test');
}, 60_000);

beforeEach(() => {
  for (const c of certificates.list()) if (c.state === 'issued') certificates.revoke(c.serial, 'test');
  service = `svc-${randomUUID().slice(0, 8)}`;
  services.put({
    cluster_id: cluster,
    service,
    version: '3.4.23-1',
    hosts,
    config: {},
    state: 'running',
    updated_at: clock.now().toISOString(),
  });
  started = [];
  refuse = null;
  schedule = new RenewalSchedule({
    certificates,
    tables: { services } as Tables<'services'>,
    clock,
    store,
    start: async (c, svc, h) => {
      if (refuse) throw refuse;
      started.push({ cluster: c, service: svc, hosts: h });
      return operation(RENEWAL_ACTION, 'running');
    },
  });
});

describe('the renewal schedule', () => {
  it('starts nothing before two thirds of the life, then one renewal of the service naming every host due', async () => {
    for (const h of hosts) issue(h);
    clock.advance(59 * DAY);
    expect(await schedule.tick()).toEqual([]);
    clock.advance(DAY + 1000);
    const [decided, ...rest] = await schedule.tick();
    expect(rest).toEqual([]);
    expect(decided).toMatchObject({ cluster_id: cluster, service, outcome: 'started' });
    expect(decided!.hosts).toEqual(expect.arrayContaining(hosts));
    expect(started).toEqual([{ cluster, service, hosts: decided!.hosts }]);
    expect(services.runningFor(cluster, service)?.id).toBe(decided!.operation_id);
  });

  it('names only the hosts whose certificates are due, and not a host the service left', async () => {
    issue(hosts[0]!);
    issue(hosts[1]!);
    clock.advance(30 * DAY);
    issue(hosts[2]!);
    services.put({
      cluster_id: cluster,
      service,
      version: '3.4.23-1',
      hosts: [hosts[1]!, hosts[2]!],
      config: {},
      state: 'running',
      updated_at: clock.now().toISOString(),
    });
    clock.advance(31 * DAY);
    expect((await schedule.tick()).map((d) => d.hosts)).toEqual([[hosts[1]]]);
  });

  it('never starts a second one while an operation runs on the service', async () => {
    issue(hosts[0]!);
    clock.advance(61 * DAY);
    const first = await schedule.tick();
    const again = await schedule.tick();
    expect(again).toEqual([expect.objectContaining({ outcome: 'running', operation_id: first[0]!.operation_id })]);
    expect(again[0]!.reason).toContain(RENEWAL_ACTION);
    expect(started).toHaveLength(1);
  });

  it('tries a failed renewal again only after its backoff, saying why it waits, the wait doubling with each failure', async () => {
    issue(hosts[0]!);
    clock.advance(61 * DAY);
    const failed = operation(RENEWAL_ACTION, 'failed', 'task liveness failed on host-a');
    let [d] = await schedule.tick();
    expect(d).toMatchObject({ outcome: 'waiting', retry_at: new Date(clock.now().getTime() + RENEWAL_BACKOFF_MS).toISOString() });
    expect(d!.reason).toContain('plan_failed: task liveness failed on host-a');
    expect(d!.reason).toContain(failed);
    clock.advance(RENEWAL_BACKOFF_MS - 1000);
    expect((await schedule.tick())[0]!.outcome).toBe('waiting');
    // A second failure in a row: twice the wait.
    operation(RENEWAL_ACTION, 'failed');
    [d] = await schedule.tick();
    expect(d!.retry_at).toBe(new Date(clock.now().getTime() + 2 * RENEWAL_BACKOFF_MS).toISOString());
    clock.advance(2 * RENEWAL_BACKOFF_MS);
    expect((await schedule.tick())[0]!.outcome).toBe('started');
    expect(started).toHaveLength(1);
  });

  it('counts only renewals in a row: one that succeeded since, or another action, sets no wait', async () => {
    issue(hosts[0]!);
    clock.advance(61 * DAY);
    operation(RENEWAL_ACTION, 'failed');
    clock.advance(1000);
    operation(RENEWAL_ACTION, 'succeeded');
    clock.advance(1000);
    operation('restart', 'failed');
    expect((await schedule.tick())[0]!.outcome).toBe('started');
  });

  it('records a refused start in the audit log and waits before trying again', async () => {
    issue(hosts[0]!);
    clock.advance(61 * DAY);
    refuse = new CoreError('conflict', 'host host-a has not reported its facts yet');
    expect(await schedule.tick()).toEqual([
      expect.objectContaining({ outcome: 'refused', reason: 'conflict: host host-a has not reported its facts yet' }),
    ]);
    expect(store.audit.list({ action: 'service.certificates_renewal_refused' })).toHaveLength(1);
    refuse = null;
    expect((await schedule.tick())[0]).toMatchObject({
      outcome: 'waiting',
      reason: 'conflict: host host-a has not reported its facts yet',
    });
    clock.advance(RENEWAL_BACKOFF_MS);
    expect((await schedule.tick())[0]!.outcome).toBe('started');
  });

  it('leaves a service that is not running as it is (a renewal restarts it)', async () => {
    issue(hosts[0]!);
    services.setState(cluster, service, 'stopped', clock.now().toISOString());
    clock.advance(61 * DAY);
    expect(await schedule.tick()).toEqual([expect.objectContaining({ outcome: 'skipped', reason: `${service} is stopped, not running` })]);
    expect(started).toEqual([]);
  });

  it('looks by itself at its interval, at the time its clock says', async () => {
    issue(hosts[0]!);
    schedule.startSchedule(10);
    await new Promise((r) => setTimeout(r, 60));
    expect(started).toEqual([]);
    clock.advance(61 * DAY);
    const deadline = Date.now() + 5000;
    while (started.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    schedule.stopSchedule();
    expect(started).toHaveLength(1);
  });

  it('doubles its wait up to a day', () => {
    expect([0, 1, 2, 3].map(renewalBackoffMs)).toEqual([0, RENEWAL_BACKOFF_MS, 2 * RENEWAL_BACKOFF_MS, 4 * RENEWAL_BACKOFF_MS]);
    expect(renewalBackoffMs(30)).toBe(DAY);
  });
});
