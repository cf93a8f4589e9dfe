// The routes of approvals, the mirror, backups, profiles, the audit log and reports are declared schema first:
// the router judges their bodies and queries with the contract's schemas, before the core looks anything up, and
// a field the core used to ignore when it was no text (a label, an approval) is now refused, naming it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Credentials } from '../../../main/core/http/router';
import { consoleApi } from '../../../main/api/console-api';
import { ROUTE_SCHEMAS } from '../../../main/contract';
import { testManager, type TestManager } from '../../support/manager';

let t: TestManager;
let ada: Credentials;
let clusterId: string;
beforeAll(async () => {
  t = testManager();
  ada = await t.login('ada', 'admin');
  clusterId = t.manager.clusters.create({ name: 'edge' }, 'test').id;
});
afterAll(() => t?.close());

const FAMILIES = [
  /^\/api\/v1\/approvals/,
  /^\/api\/v1\/mirror/,
  /^\/api\/v1\/settings\/(release-keys|mirror|endpoint-trust)/,
  /^\/api\/v1\/clusters\/:id\/(backups|profile|preflight|acceptance)/,
  /^\/api\/v1\/profiles$/,
  /^\/api\/v1\/audit/,
  /^\/api\/v1\/reports/,
];

describe('approvals, mirror, backups, profiles, audit and reports', () => {
  test('every route of these families is declared schema first', () => {
    const routes = consoleApi()
      .list()
      .filter((r) => FAMILIES.some((f) => f.test(r.pattern)))
      .map((r) => `${r.method} ${r.pattern}`);
    expect(routes.length).toBeGreaterThanOrEqual(30);
    expect(routes.filter((key) => !Object.hasOwn(ROUTE_SCHEMAS, key))).toEqual([]);
  });

  test('a profile that is none of the five is invalid_field before the cluster is looked up', async () => {
    expect((await t.call('PUT', '/api/v1/clusters/nope/profile', { profile: 'boss' }, ada)).body).toEqual({
      error: {
        code: 'invalid_field',
        field: 'profile',
        message: 'profile must be one of development, standard, banking-secure, air-gapped, hybrid',
      },
    });
    expect((await t.call('PUT', '/api/v1/clusters/nope/profile', { profile: 'standard' }, ada)).status).toBe(404);
  });

  test('an approval_id that is no text is invalid_field, not ignored: a restore and a profile change', async () => {
    expect(
      (await t.call('POST', `/api/v1/clusters/${clusterId}/backups/nope/restore`, { service: 'nats', approval_id: 7 }, ada)).body,
    ).toMatchObject({ error: { code: 'invalid_field', field: 'approval_id' } });
    expect((await t.call('POST', `/api/v1/clusters/${clusterId}/backups/nope/restore`, { service: '' }, ada)).body).toMatchObject({
      error: { code: 'invalid_field', field: 'service', message: 'service is the name of the component to restore' },
    });
    expect(
      (await t.call('PUT', `/api/v1/clusters/${clusterId}/profile`, { profile: 'standard', approval_id: [] }, ada)).body,
    ).toMatchObject({
      error: { code: 'invalid_field', field: 'approval_id' },
    });
  });

  test("a release key's label that is no text is refused, and nothing is trusted", async () => {
    const res = await t.call('POST', '/api/v1/settings/release-keys', { public_key_pem: 'x', label: 5 }, ada);
    expect(res.body).toMatchObject({ error: { code: 'invalid_field', field: 'label' } });
    expect(t.manager.store.audit.list({ action: 'release_key.trust' })).toHaveLength(0);
    // A well-formed body reaches the core, which reads the PEM.
    expect((await t.call('POST', '/api/v1/settings/release-keys', { public_key_pem: 'x' }, ada)).body).toMatchObject({
      error: { code: 'release_key_invalid' },
    });
  });

  test('an approval request names an approvable act; its list filters by a known state, a blank one being none', async () => {
    const bad = await t.call('POST', '/api/v1/approvals', { cluster_id: clusterId, action: 'format', service: 'nats', reason: 'r' }, ada);
    expect(bad.body).toMatchObject({ error: { code: 'invalid_field', field: 'action', message: expect.stringContaining('upgrade') } });
    expect((await t.call('GET', '/api/v1/approvals?state=maybe', undefined, ada)).body).toMatchObject({
      error: { code: 'invalid_field', field: 'state' },
    });
    expect((await t.call('GET', '/api/v1/approvals?state=', undefined, ada)).status).toBe(200);
    expect((await t.call('POST', '/api/v1/approvals/nope/approve', [], ada)).body).toMatchObject({ error: { code: 'bad_request' } });
  });

  test('the audit and report queries: a text past 256 characters and a blank or unknown language', async () => {
    expect((await t.call('GET', `/api/v1/audit?actor=${'a'.repeat(257)}`, undefined, ada)).body).toMatchObject({
      error: { code: 'invalid_field', field: 'actor' },
    });
    expect((await t.call('GET', '/api/v1/reports?cluster_id=&limit=', undefined, ada)).status).toBe(200);
    for (const lang of ['', 'de'])
      expect((await t.call('GET', `/api/v1/reports/nope/html?lang=${lang}`, undefined, ada)).body).toEqual({
        error: { code: 'invalid_field', field: 'lang', message: 'lang must be one of en, fr' },
      });
    expect((await t.call('GET', '/api/v1/reports/nope/html', undefined, ada)).status).toBe(404);
  });
});
