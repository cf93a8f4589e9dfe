// The result schemas of the services, sheet, backups and catalog families describe what their handlers answer:
// each answer parsed by its schema comes back whole (a field the schema lacks would be stripped, one it words
// otherwise refused), so the OpenAPI document built from them says what the API sends.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { z } from 'zod';
import { ROUTE_SCHEMAS } from '../../../main/contract';
import type { Credentials } from '../../../main/core/http/router';
import { testManager, type TestManager } from '../../support/manager';

let t: TestManager;
let admin: Credentials;
let cluster: string;
beforeAll(async () => {
  t = testManager();
  admin = await t.login('ada', 'admin');
  cluster = t.manager.clusters.create({ name: 'results-hosts', kind: 'hosts' }, 'test').id;
  t.manager.hosts.add(cluster, { name: 'h-0', address: '198.18.7.3' }, 'test');
});
afterAll(() => t?.close());

/** The answer to `path`, checked against the result schema of `route`. */
async function answersItsSchema(route: keyof typeof ROUTE_SCHEMAS, path: string): Promise<unknown> {
  const [method] = route.split(' ') as ['GET' | 'POST'];
  const res = await t.call(method, path, method === 'POST' ? {} : undefined, admin);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  const schema: z.ZodType = ROUTE_SCHEMAS[route].result;
  const parsed = schema.safeParse(res.body);
  expect(parsed.error?.issues ?? []).toEqual([]);
  expect(parsed.data).toEqual(res.body);
  return res.body;
}

describe('results as their schemas describe them', () => {
  test('the catalog, and each of its services resolved', async () => {
    const list = (await answersItsSchema('GET /api/v1/catalog', '/api/v1/catalog')) as { services: { service: string }[] };
    expect(list.services.length).toBeGreaterThan(0);
    for (const { service } of list.services) await answersItsSchema('GET /api/v1/catalog/:service', `/api/v1/catalog/${service}`);
  });

  test("a hosts cluster's services, backup sets, and a sheet and figures of a service not installed", async () => {
    const base = `/api/v1/clusters/${cluster}`;
    await answersItsSchema('GET /api/v1/clusters/:id/services', `${base}/services`);
    await answersItsSchema('GET /api/v1/clusters/:id/service-backups', `${base}/service-backups`);
    await answersItsSchema('GET /api/v1/clusters/:id/services/:service/operations', `${base}/services/etcd/operations`);
    const sheet = (await answersItsSchema('GET /api/v1/clusters/:id/services/:service/sheet', `${base}/services/etcd/sheet`)) as {
      unobserved: object;
    };
    expect(Object.keys(sheet.unobserved).length).toBeGreaterThan(0);
    await answersItsSchema('GET /api/v1/clusters/:id/services/:service/metrics', `${base}/services/etcd/metrics?minutes=5`);
  });
});
