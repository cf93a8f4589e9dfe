// A cluster's create and change bodies are judged field by field, whatever judges the field (the contract's schema
// its type, its word list and a description's length; the core a DNS name, an FQDN, an IP address), each refusal
// naming the field and its rule; a change never touches the profile, the kind or the tenant.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Credentials } from '../../../../main/core/http/router';
import { testManager, type TestManager } from '../../../support/manager';

let t: TestManager;
let admin: Credentials;
let id: string;

beforeAll(async () => {
  t = testManager();
  admin = await t.login('ada', 'admin');
  id = t.manager.clusters.create({ name: 'bodies' }, 'test').id;
});
afterAll(() => t?.close());

const FQDN_RULE = 'fqdn is a fully qualified DNS name such as api.prod.example.internal';
const ADDRESS_RULE = 'address is the IPv4 or IPv6 address the FQDN must resolve to';
const DESCRIPTION_RULE = 'a description is text of at most 1000 characters';

test.each([
  [{ description: 'x'.repeat(1001) }, 'description', DESCRIPTION_RULE],
  [{ description: 7 }, 'description', DESCRIPTION_RULE],
  [{ fqdn: 'no-dots' }, 'fqdn', FQDN_RULE],
  [{ fqdn: '10.0.0.1' }, 'fqdn', FQDN_RULE],
  [{ fqdn: 5 }, 'fqdn', FQDN_RULE],
  [{ address: 'api.example.internal' }, 'address', ADDRESS_RULE],
  [{ address: [] }, 'address', ADDRESS_RULE],
  [{ profile: 'boss' }, 'profile', 'profile must be one of development, standard, banking-secure, air-gapped, hybrid'],
  [{ kind: 'vms' }, 'kind', 'kind must be one of kubernetes, hosts'],
  [{ tenant: 'Bad Tenant' }, 'tenant', undefined],
])('a new cluster with %j is invalid_field %s', async (fields, field, message) => {
  const res = await t.call('POST', '/api/v1/clusters', { name: 'refused', ...fields }, admin);
  expect(res.body).toMatchObject({ error: { code: 'invalid_field', field, ...(message ? { message } : {}) } });
  expect(t.manager.clusters.list().map((c) => c.name)).not.toContain('refused');
});

test('an FQDN and an address are kept, the FQDN lowercased without its final dot; null or "" removes them', async () => {
  const set = await t.call('PATCH', `/api/v1/clusters/${id}`, { fqdn: 'API.Example.Internal.', address: '10.0.0.1' }, admin);
  expect(set.body).toMatchObject({ fqdn: 'api.example.internal', address: '10.0.0.1' });
  const cleared = await t.call('PATCH', `/api/v1/clusters/${id}`, { fqdn: null, address: '' }, admin);
  expect(cleared.body).toMatchObject({ fqdn: null, address: null });
});

test.each([
  ['profile', 'standard', 'the profile is changed with PUT /api/v1/clusters/{id}/profile (admin)'],
  ['kind', 'hosts', 'the kind of a cluster cannot change'],
  ['tenant', 'other', 'the tenant of a cluster cannot change (agent configs are signed for it)'],
  ['profile', null, 'the profile is changed with PUT /api/v1/clusters/{id}/profile (admin)'],
])('a change naming %s (%j) is invalid_field with the reason, and changes nothing', async (field, value, message) => {
  const res = await t.call('PATCH', `/api/v1/clusters/${id}`, { description: 'changed', [field]: value }, admin);
  expect(res.body).toEqual({ error: { code: 'invalid_field', field, message } });
  expect(t.manager.clusters.get(id)).toMatchObject({ description: '', kind: 'kubernetes', tenant: 'default', profile: 'development' });
});
