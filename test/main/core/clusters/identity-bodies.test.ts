// An agent identity's request, for a cluster agent or a host's node agent, is judged the same way: the contract's
// schema its types and the offline delay's range, the core the gateway URL and the TLS name, naming the field;
// nothing is issued for a refused request.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Credentials } from '../../../../main/core/http/router';
import { testManager, type TestManager } from '../../../support/manager';

let t: TestManager;
let operator: Credentials;
let routes: Record<string, string>;

beforeAll(async () => {
  t = testManager();
  operator = await t.login('otto', 'operator');
  const kube = t.manager.clusters.create({ name: 'kube-ids' }, 'test');
  const hosts = t.manager.clusters.create({ name: 'host-ids', kind: 'hosts' }, 'test');
  const host = t.manager.hosts.add(hosts.id, { name: 'node-1', address: '198.18.7.40' }, 'test');
  routes = { cluster: `/api/v1/clusters/${kube.id}/kubernetes/agent`, host: `/api/v1/hosts/${host.id}/agent` };
});
afterAll(() => t?.close());

const gateway_url = 'https://manager.example:8462';
/** The audit row of an identity issued, by agent. */
const ISSUED: Record<string, string> = { cluster: 'agent.identity_issue', host: 'host.identity_issue' };
const OFFLINE_RULE = 'offline_after_s is a whole number of seconds from 5 to 86400';

describe.each(['cluster', 'host'])("a %s agent's identity", (agent) => {
  test.each([4, 86_401, 12.5, '60', null])('offline_after_s %j is invalid_field with its rule', async (offline_after_s) => {
    const res = await t.call('POST', routes[agent]!, { gateway_url, offline_after_s }, operator);
    expect(res.body).toEqual({ error: { code: 'invalid_field', field: 'offline_after_s', message: OFFLINE_RULE } });
  });

  test('a TLS name that is no DNS name, a gateway that is no https URL and an approval that is no text are refused by name', async () => {
    for (const [body, field] of [
      [{ gateway_url, server_name: 'Not A Name' }, 'server_name'],
      [{ gateway_url, server_name: '' }, 'server_name'],
      [{ gateway_url: 'http://manager.example:8462' }, 'gateway_url'],
      [{ gateway_url: 8462 }, 'gateway_url'],
      [{ gateway_url, approval_id: 5 }, 'approval_id'],
    ] as const) {
      const res = await t.call('POST', routes[agent]!, body, operator);
      expect([res.status, res.body], JSON.stringify(body)).toEqual([
        400,
        { error: expect.objectContaining({ code: 'invalid_field', field }) },
      ]);
    }
    expect(t.manager.store.audit.list({ limit: 50, action: ISSUED[agent] })).toEqual([]);
  });

  test('a whole delay in range and a DNS name are taken', async () => {
    const res = await t.call('POST', routes[agent]!, { gateway_url, server_name: 'gw.example', offline_after_s: 300 }, operator);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(JSON.parse((res.body as { files: Record<string, string> }).files['config.json']!).payload).toMatchObject({
      server_name: 'gw.example',
      offline_after_s: 300,
    });
  });
});
