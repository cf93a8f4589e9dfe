// The services routes' bodies and queries are parsed by the contract's schemas (main/contract/services.ts): a
// field of the wrong JSON shape is a 400 invalid_field naming it before the core runs; a field of the right shape
// is judged by the core (the catalog's services, the cluster's hosts), which alone knows them.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testManager, type TestManager } from '../../../support/manager';

describe('services request bodies', () => {
  let t: TestManager;
  let admin: Awaited<ReturnType<TestManager['login']>>;
  let cluster: string;
  beforeAll(async () => {
    t = testManager();
    admin = await t.login('ada', 'admin');
    cluster = t.manager.clusters.create({ name: 'bodies-hosts', kind: 'hosts' }, 'test').id;
    t.manager.hosts.add(cluster, { name: 'h-0', address: '198.18.7.2' }, 'test');
  });
  afterAll(() => t?.close());

  const services = () => `/api/v1/clusters/${cluster}/services`;
  const valid = { service: 'etcd', version: '3.4.23-1', hosts: ['h-0'] };

  test.each([
    ['service', { ...valid, service: 5 }],
    ['version', { ...valid, version: null }],
    ['hosts', { ...valid, hosts: [] }],
    ['hosts', { ...valid, hosts: ['h-0', 3] }],
    ['hosts', { ...valid, hosts: 'h-0' }],
    ['config', { ...valid, config: ['x'] }],
    ['config', { ...valid, config: 'x' }],
  ])('an install whose %s has the wrong shape is a 400 invalid_field naming it', async (field, body) => {
    const r = await t.call('POST', services(), body, admin);
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body).toMatchObject({ error: { code: 'invalid_field', field } });
  });

  test('an install body that is not a JSON object is a 400 bad_request', async () => {
    const r = await t.call('POST', services(), ['etcd'], admin);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: { code: 'bad_request' } });
  });

  test('a service or a host of the right shape that does not exist is judged by the core, naming the choices', async () => {
    const service = await t.call('POST', services(), { ...valid, service: 'nope' }, admin);
    expect(service.body).toMatchObject({ error: { code: 'invalid_field', field: 'service' } });
    expect(JSON.stringify(service.body)).toMatch(/one of the catalog's: .*etcd/);
    const host = await t.call('POST', services(), { ...valid, hosts: ['h-9'] }, admin);
    expect(host.body).toMatchObject({ error: { code: 'invalid_field', field: 'hosts', message: 'this cluster has no host h-9' } });
  });

  test('an action not among the service actions is a 400 invalid_field naming them', async () => {
    const r = await t.call('POST', `${services()}/etcd/actions`, { action: 'reboot' }, admin);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: { code: 'invalid_field', field: 'action' } });
    expect(JSON.stringify(r.body)).toMatch(/start, stop, restart, uninstall, functional_test, check/);
  });

  test('an approval id that is no string is read as none, not refused', async () => {
    const r = await t.call('POST', `${services()}/etcd/actions`, { action: 'restart', approval_id: 5 }, admin);
    expect(r.body).toMatchObject({ error: { code: 'service_not_installed' } });
  });

  test('an upgrade names the version it is given as the faulty field; the question names its query', async () => {
    for (const version of [undefined, '', 3]) {
      const r = await t.call('POST', `${services()}/etcd/upgrade`, { version }, admin);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: { code: 'invalid_field', field: 'version' } });
    }
    const q = await t.call('GET', `${services()}/etcd/upgrade`, undefined, admin);
    expect(q.status).toBe(400);
    expect(q.body).toMatchObject({ error: { code: 'invalid_field', field: 'to' } });
  });

  test('a configuration whose config is no object is a 400 invalid_field; a rollback body must be an object', async () => {
    const c = await t.call('PUT', `${services()}/etcd/config`, { config: 7 }, admin);
    expect(c.body).toMatchObject({ error: { code: 'invalid_field', field: 'config' } });
    const r = await t.call('POST', `${services()}/etcd/rollback`, 'now', admin);
    expect(r.body).toMatchObject({ error: { code: 'bad_request' } });
    // Absent optional fields are no fault: the core answers for the service.
    for (const [method, path] of [
      ['PUT', 'config'],
      ['POST', 'rollback'],
    ] as const) {
      const none = await t.call(method, `${services()}/etcd/${path}`, {}, admin);
      expect(none.body).toMatchObject({ error: { code: 'service_not_installed' } });
    }
  });
  test('a page size or a window out of its range is a 400 invalid_field naming the query parameter', async () => {
    for (const limit of ['0', '201', '1.5', 'abc']) {
      const r = await t.call('GET', `${services()}/etcd/operations?limit=${limit}`, undefined, admin);
      expect(r.body).toMatchObject({ error: { code: 'invalid_field', field: 'limit', message: 'limit is a whole number from 1 to 200' } });
    }
    const m = await t.call('GET', `${services()}/etcd/metrics?minutes=1441`, undefined, admin);
    expect(m.body).toMatchObject({
      error: { code: 'invalid_field', field: 'minutes', message: 'minutes is a whole number from 1 to 1440' },
    });
    // Empty is the default page: the service has had no operation.
    expect(await t.call('GET', `${services()}/etcd/operations?limit=`, undefined, admin)).toMatchObject({
      status: 200,
      body: { items: [] },
    });
  });

  test("a journal read's lines are a whole number in range, in a body that is a JSON object", async () => {
    for (const lines of [0, 5001, 2.5, '50']) {
      const r = await t.call('POST', `${services()}/etcd/logs`, { lines }, admin);
      expect(r.body).toMatchObject({ error: { code: 'invalid_field', field: 'lines', message: 'lines is a whole number from 1 to 5000' } });
    }
    expect((await t.call('POST', `${services()}/etcd/logs`, undefined, admin)).body).toMatchObject({ error: { code: 'bad_request' } });
  });
  test('a backup names its services as a non-empty list of names; a restore names its service', async () => {
    const backups = `/api/v1/clusters/${cluster}/service-backups`;
    for (const services of [[], ['etcd', 3], 'etcd'])
      expect((await t.call('POST', backups, { services }, admin)).body).toMatchObject({
        error: { code: 'invalid_field', field: 'services', message: 'services is a non-empty list of installed service names' },
      });
    expect((await t.call('POST', backups, undefined, admin)).body).toMatchObject({ error: { code: 'bad_request' } });
    // Of the right shape, the core judges the names against what is installed; an approval that is no text is none.
    expect((await t.call('POST', backups, { services: ['etcd'], approval_id: 5 }, admin)).body).toMatchObject({
      error: { code: 'invalid_field', field: 'services', message: 'etcd is not installed on this cluster' },
    });
    for (const service of [undefined, '', 7])
      expect((await t.call('POST', `${backups}/nope/restore`, { service }, admin)).body).toMatchObject({
        error: { code: 'invalid_field', field: 'service', message: 'service is the service to restore' },
      });
    expect((await t.call('POST', `${backups}/nope/restore`, { service: 'etcd' }, admin)).status).toBe(404);
    expect((await t.call('GET', `${backups}?limit=0`, undefined, admin)).body).toMatchObject({
      error: { code: 'invalid_field', field: 'limit' },
    });
  });
});
