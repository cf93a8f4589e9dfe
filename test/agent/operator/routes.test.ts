// Routes from what the operator may see: a cert-manager certificate through its Certificate's Ready condition,
// the owner's own certificate not at all (its Secret is never read).
import { describe, expect, test } from 'vitest';
import { routeFor, type RouteFacts, type RouteSpec } from '../../../agent/operator/routes';
import type { ManagedComponentObject } from '../../../agent/operator/workloads';

const mc = {
  apiVersion: 'platform.navin.ai/v1alpha1',
  kind: 'ManagedComponent',
  metadata: { name: 'opa', namespace: 'navin-platform', uid: 'u1' },
  spec: { component: 'opa', version: '1.4.2', artifacts: [{ name: 'opa', image: 'mirror.local/navin/opa@sha256:' + 'a'.repeat(64) }] },
} as unknown as ManagedComponentObject;

const facts = (ready: string[] = []): RouteFacts & { asked: string[] } => {
  const asked: string[] = [];
  return {
    asked,
    certificateReady: (name) => (asked.push(name), ready.includes(name)),
    gatewayApi: false,
    certManager: true,
  };
};

describe('TLS routes without reading Secrets', () => {
  const issued: RouteSpec = { site: 'issued', host: 'a.example', tls: 'cert-manager', issuer: 'ca' };

  test('a cert-manager route is pending until the Certificate navin-tls-<site> is Ready, then routed', () => {
    const before = facts();
    expect(routeFor(mc, issued, before).status).toMatchObject({ routed: false, reason: 'CertificatePending' });
    expect(before.asked).toEqual(['navin-tls-issued']);
    const after = routeFor(mc, issued, facts(['navin-tls-issued']));
    expect(after.status).toMatchObject({ routed: true, reason: 'Routed' });
    expect((after.object as { spec: { tls: unknown } }).spec.tls).toEqual([{ hosts: ['a.example'], secretName: 'navin-tls-issued' }]);
  });

  test("the owner's certificate is routed at once and nothing about its Secret is asked", () => {
    const f = facts();
    const r = routeFor(mc, { site: 'own', host: 'b.example', tls: 'secret' }, f);
    expect(r.status).toMatchObject({ routed: true, reason: 'Routed' });
    expect(r.status.message).toContain("owner's Secret navin-tls-own");
    expect((r.object as { spec: { tls: unknown } }).spec.tls).toEqual([{ hosts: ['b.example'], secretName: 'navin-tls-own' }]);
    expect(f.asked).toEqual([]);
  });
});
