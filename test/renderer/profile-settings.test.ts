import { describe, expect, it } from 'vitest';
import type { CheckResult, ProfileView } from '../../renderer/src/api/types';
import { createConsoleSettingsStore } from '../../renderer/src/features/settings/store';
import { createProfileStore } from '../../renderer/src/features/profile/store';
import { FakeApi, apiError, makeClient } from './support/fake-api';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

const cluster = (fqdn: string | null, address: string | null) => ({
  id: 'c-1',
  name: 'edge',
  description: '',
  tenant: 'default',
  state: 'pending',
  profile: 'standard',
  fqdn,
  address,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
});

const evaluation = (rules: CheckResult[]): ProfileView => ({
  cluster_id: 'c-1',
  profile: 'standard',
  status: rules.some((r) => r.status === 'fail') ? 'blocked' : 'compliant',
  rules,
  four_eyes: false,
  four_eyes_actions: [],
  evaluated_at: '2026-01-01T00:00:00Z',
});

describe('trusted CAs for service endpoints', () => {
  it('loads the bundle, saves a new one, clears it with an empty bundle, and keeps a refusal on the field', async () => {
    const api = new FakeApi();
    let stored = '';
    api
      .on('GET /api/v1/settings/endpoint-trust', () => ({ status: 200, body: { ca_pem: stored } }))
      .on('PUT /api/v1/settings/endpoint-trust', (req) => {
        const pem = (req.body as { ca_pem: string }).ca_pem;
        if (pem !== '' && !pem.includes('BEGIN CERTIFICATE'))
          return apiError(400, 'invalid_field', 'no PEM certificate found in ca_pem', 'ca_pem');
        stored = pem.trim();
        return { status: 200, body: { ca_pem: stored } };
      });
    const store = createConsoleSettingsStore({ client: makeClient(api) });
    await store.getState().loadEndpointTrust();
    expect(store.getState().endpointTrust.value).toEqual({ ca_pem: '' });

    expect(await store.getState().saveEndpointTrust(PEM)).toBe(true);
    expect(api.callsTo('PUT', '/api/v1/settings/endpoint-trust')[0]?.body).toEqual({ ca_pem: PEM });
    expect(store.getState().endpointTrust.value?.ca_pem).toBe(PEM.trim());

    expect(await store.getState().saveEndpointTrust('not a certificate')).toBe(false);
    expect(store.getState().endpointTrust.save.error?.field).toBe('ca_pem');
    expect(store.getState().endpointTrust.value?.ca_pem).toBe(PEM.trim());
    store.getState().clearEndpointTrustError();
    expect(store.getState().endpointTrust.save.error).toBeNull();

    expect(await store.getState().saveEndpointTrust('')).toBe(true);
    expect(store.getState().endpointTrust.value?.ca_pem).toBe('');
  });
});

describe('profile catalog', () => {
  it('reads the profiles and their rules from the manager once', async () => {
    const api = new FakeApi();
    const items = [
      { name: 'standard', rules: [{ id: 'profile.admin_mfa', title: { en: 'MFA for administrators', fr: 'MFA des administrateurs' } }] },
    ];
    api.on('GET /api/v1/profiles', { status: 200, body: { items } });
    const store = createConsoleSettingsStore({ client: makeClient(api) });
    await Promise.all([store.getState().loadProfiles(), store.getState().loadProfiles()]);
    await store.getState().loadProfiles();
    expect(store.getState().profiles.value?.items).toEqual(items);
    expect(api.callsTo('GET', '/api/v1/profiles')).toHaveLength(1);
  });
});

describe('cluster FQDN and address on the Profile tab', () => {
  it('patches them (empty clears), evaluates the profile again, and names the refused field', async () => {
    const api = new FakeApi();
    let profileReads = 0;
    api
      .on('GET /api/v1/clusters/c-1/profile', () => {
        profileReads += 1;
        return { status: 200, body: evaluation([]) };
      })
      .on('PATCH /api/v1/clusters/c-1', (req) => {
        const b = req.body as { fqdn: string | null; address: string | null };
        if (b.address === '999.1.1.1') return apiError(400, 'invalid_field', 'address is not an IP address', 'address');
        return { status: 200, body: cluster(b.fqdn, b.address) };
      });
    const store = createProfileStore({ client: makeClient(api) });
    await store.getState().bind('c-1');
    expect(profileReads).toBe(1);

    const updated = await store.getState().setEndpoint({ fqdn: 'k8s.edge.internal', address: null });
    expect(updated?.fqdn).toBe('k8s.edge.internal');
    expect(api.callsTo('PATCH', '/api/v1/clusters/c-1')[0]?.body).toEqual({ fqdn: 'k8s.edge.internal', address: null });
    await new Promise((r) => setTimeout(r, 0));
    expect(profileReads).toBe(2);

    expect(await store.getState().setEndpoint({ fqdn: null, address: '999.1.1.1' })).toBeNull();
    expect(store.getState().endpoint.error?.code).toBe('invalid_field');
    expect(store.getState().endpoint.error?.field).toBe('address');
    store.getState().clearEndpointError();
    expect(store.getState().endpoint).toEqual({ pending: false, error: null });
  });
});
