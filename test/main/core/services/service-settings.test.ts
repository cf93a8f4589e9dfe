// A service's settings are judged by their declared types at the API, before gates or plans: a hostile
// "one-line" value is a 400 invalid_field naming the setting and its type. (What each type accepts is in
// test/main/core/catalog/setting-types.test.ts.)
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testManager, type TestManager } from '../../../support/manager';

describe('service settings at the API', () => {
  let t: TestManager;
  let admin: Awaited<ReturnType<TestManager['login']>>;
  let cluster: string;
  beforeAll(async () => {
    t = testManager();
    admin = await t.login('ada', 'admin');
    cluster = t.manager.clusters.create({ name: 'settings-hosts', kind: 'hosts' }, 'test').id;
    t.manager.hosts.add(cluster, { name: 'h-0', address: '198.18.7.1' }, 'test');
  });
  afterAll(() => t?.close());

  const install = (service: string, version: string, config: unknown) =>
    t.call('POST', `/api/v1/clusters/${cluster}/services`, { service, version, hosts: ['h-0'], config }, admin);

  test.each([
    [
      'etcd',
      '3.4.23-1',
      { auto_compaction_retention: '1"\u2028force-new-cluster: true\u2028x: "' },
      /auto_compaction_retention \(duration\)/,
    ],
    ['etcd', '3.4.23-1', { auto_compaction_retention: '1\u0085force-new-cluster: true' }, /duration/],
    ['etcd', '3.4.23-1', { quota_backend_bytes: '2147483648\nforce-new-cluster: true' }, /quota_backend_bytes \(integer\)/],
    ['etcd', '3.4.23-1', { quota_backend_bytes: 2 ** 40 }, /at most 8589934592/],
    ['nats', '2.9.10-1', { jetstream_max_memory: '256MB; store_dir: "/elsewhere"' }, /jetstream_max_memory \(size\)/],
    ['node-exporter', '1.5.0-1', { collector_flags: '--no-collector.wifi --web.listen-address=0.0.0.0:9100' }, /collector_flags \(list\)/],
    ['node-exporter', '1.5.0-1', { collector_flags: '--no-collector.wifi\u2029ExecStartPre=/bin/sh' }, /collector_flags \(list\)/],
  ])('%s %s refuses the setting %j with invalid_field', async (service, version, config, message) => {
    const r = await install(service, version, config);
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body).toMatchObject({ error: { code: 'invalid_field', field: 'config' } });
    expect(JSON.stringify(r.body)).toMatch(message);
  });
});
