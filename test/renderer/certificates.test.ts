// The certificates store behind the fleet screen and the shell's alert: the manager's list as it comes (soonest to
// expire first), the expiring ones the alert counts, the "under 14 days only" filter, the certificate the alert
// points at, and a failed reload that keeps the rows shown with its error.
import { describe, expect, it } from 'vitest';
import type { FleetCertificate } from '../../preload/api';
import { createCertificatesStore, selectExpiring, selectShown } from '../../renderer/src/features/certificates/store';
import { FakeApi, apiError, makeClient } from './support/fake-api';

const PATH = 'GET /api/v1/certificates';

function certificate(serial: string, days: number, patch: Partial<FleetCertificate> = {}): FleetCertificate {
  return {
    serial,
    kind: 'service',
    cluster_id: 'c-1',
    host_id: 'h-1',
    service: 'etcd',
    subject: `CN=m-${serial}`,
    sans: [`m-${serial}`, '198.18.4.10'],
    issuer: { ca: 'service', serial: 'ca1' },
    not_after: new Date(Date.now() + days * 86_400_000 + 3_600_000).toISOString(),
    days_left: days,
    state: 'issued',
    expiring: days < 14,
    ...patch,
  };
}

describe('the certificates store', () => {
  const items = [
    certificate('a1', 3),
    certificate('b2', 10, { state: 'superseded', expiring: false }),
    certificate('c3', 12, { kind: 'node-agent', service: null, issuer: { ca: 'manager', serial: null } }),
    certificate('d4', 300, { kind: 'gateway', cluster_id: null, host_id: null, service: null, sans: null }),
  ];

  it('loads the list in the manager’s order; the alert counts only the ones in use under 14 days', async () => {
    const api = new FakeApi().on(PATH, { status: 200, body: { items } });
    const store = createCertificatesStore({ client: makeClient(api) });
    await store.getState().load();
    expect(store.getState().status).toBe('ready');
    expect(store.getState().items.map((c) => c.serial)).toEqual(['a1', 'b2', 'c3', 'd4']);
    // b2 has 10 days left but was superseded: the manager does not flag it, nor does the alert.
    expect(selectExpiring(store.getState()).map((c) => c.serial)).toEqual(['a1', 'c3']);
  });

  it('filters to the expiring ones on demand, and keeps the certificate the alert led to until reset', async () => {
    const api = new FakeApi().on(PATH, { status: 200, body: { items } });
    const store = createCertificatesStore({ client: makeClient(api) });
    await store.getState().load();
    expect(selectShown(store.getState())).toHaveLength(4);
    store.getState().setExpiringOnly(true);
    expect(selectShown(store.getState()).map((c) => c.serial)).toEqual(['a1', 'c3']);
    store.getState().focus('c3');
    expect(store.getState().focused).toBe('c3');
    store.getState().reset();
    expect(store.getState()).toMatchObject({ items: [], status: 'idle', focused: null, expiringOnly: false });
  });

  it('a failed reload keeps the rows shown, with the error', async () => {
    let fail = false;
    const api = new FakeApi().on(PATH, () => (fail ? apiError(403, 'forbidden') : { status: 200, body: { items } }));
    const store = createCertificatesStore({ client: makeClient(api) });
    await store.getState().load();
    fail = true;
    await store.getState().load();
    expect(store.getState()).toMatchObject({ status: 'ready', error: { code: 'forbidden' } });
    expect(store.getState().items).toHaveLength(4);
  });
});
