// The install.offline_source lines against a real registry (Distribution 2.8, TLS from the test CA on loopback): a digest the mirror holds passes,
// a missing one fails naming the reference, an untrusted mirror fails, and what cannot be checked is BLOCKED.
// Also the admin settings route that configures the mirror.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { systemClock } from '../../../../main/core/clock';
import { offlineSourceLines, parseImageReference } from '../../../../main/core/checks/mirror';
import type { Credentials } from '../../../../main/core/http/router';
import { testManager, type TestManager } from '../../../support/manager';
import { absentDigest, pushTestImage, registryAvailable, startRegistry, type TestRegistry } from '../../../support/registry';
import { describeNeeding } from '../../../support/needs';
import { testCas } from '../../../support/tls-endpoints';

const MISSING = absentDigest('missing');
const spec = (...images: string[]) => ({
  component: 'etcd',
  version: '3.5.15',
  artifacts: images.map((image, i) => ({ name: `a${i}`, image })),
});

describeNeeding('offline install source', [registryAvailable()], () => {
  let registry: TestRegistry;
  let mirror: { url: string; ca_pem: string };
  let HELD: string;
  let BUSYBOX: string;

  beforeAll(async () => {
    registry = await startRegistry();
    mirror = { url: registry.url, ca_pem: registry.caPem };
    HELD = await pushTestImage(registry, 'navin/etcd');
    BUSYBOX = await pushTestImage(registry, 'library/busybox');
  });
  afterAll(() => registry?.stop());

  test('every artifact found by digest in the mirror passes, with the digests', async () => {
    const [l] = await offlineSourceLines({ etcd: spec(`registry.internal/navin/etcd@${HELD}`, `busybox@${BUSYBOX}`) }, mirror, systemClock);
    expect(l!.status).toBe('PASS');
    // Both are OCI indexes: the registry answers a HEAD for one only when the request accepts that type.
    expect(l!.evidence.digests).toEqual([HELD, BUSYBOX]);
    expect((l!.evidence as any).lookups.map((x: any) => x.media_type)).toEqual([
      'application/vnd.oci.image.index.v1+json',
      'application/vnd.oci.image.index.v1+json',
    ]);
    for (const path of [`/v2/navin/etcd/manifests/${HELD}`, `/v2/library/busybox/manifests/${BUSYBOX}`])
      await registry.waitForRequest((r) => r.method === 'HEAD' && r.path === path && r.status === 200);
  });

  test('a digest the mirror does not hold fails, naming the missing reference', async () => {
    const missing = `registry.internal/navin/etcd@${MISSING}`;
    const [l] = await offlineSourceLines({ etcd: spec(`registry.internal/navin/etcd@${HELD}`, missing) }, mirror, systemClock);
    expect(l!.status).toBe('FAIL');
    expect(l!.evidence.missing).toEqual([missing]);
    expect(l!.evidence.reason!.en).toContain(`${missing} (404, not in the mirror)`);
  });

  test('a mirror whose certificate is not trusted fails: the CA setting is really used', async () => {
    const [l] = await offlineSourceLines(
      { etcd: spec(`registry.internal/navin/etcd@${HELD}`) },
      { url: registry.url, ca_pem: null },
      systemClock,
    );
    expect(l!.status).toBe('FAIL');
    expect((l!.evidence as any).lookups[0].error).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY|certificate/i);
  });

  test('no mirror configured, or no artifact declared, is BLOCKED with the reason', async () => {
    const lines = await offlineSourceLines(
      { a: spec(`registry.internal/navin/etcd@${HELD}`), b: spec() },
      { url: null, ca_pem: null },
      systemClock,
    );
    expect(lines.map((l) => [l.id, l.status])).toEqual([
      ['install.offline_source.a', 'BLOCKED'],
      ['install.offline_source.b', 'BLOCKED'],
    ]);
    expect(lines[0]!.evidence.reason!.en).toMatch(/no internal mirror is configured/);
    expect(lines[1]!.evidence.reason!.en).toMatch(/no artifact declared/);
  });
});

test('image references split into registry, repository and digest as the distribution grammar says', () => {
  expect(parseImageReference(`mirror.local:5000/team/opa:1.0@${MISSING}`)).toEqual({
    image: `mirror.local:5000/team/opa:1.0@${MISSING}`,
    registry: 'mirror.local:5000',
    repository: 'team/opa',
    digest: MISSING,
  });
  expect(parseImageReference(`busybox@${MISSING}`)).toMatchObject({ registry: 'docker.io', repository: 'library/busybox' });
  expect(parseImageReference('registry.internal/navin/opa:1.0')).toBeNull();
});

describe('mirror settings route', () => {
  let t: TestManager;
  let admin: Credentials;
  let operator: Credentials;

  beforeAll(async () => {
    t = testManager();
    admin = await t.login('ada', 'admin');
    operator = await t.login('olga', 'operator');
  });
  afterAll(() => t?.close());

  test('an admin sets and reads the mirror URL and CA; the change is audited', async () => {
    expect((await t.call('GET', '/api/v1/settings/mirror', undefined, admin)).body).toEqual({ url: null, ca_pem: null });
    const caPem = testCas().trusted.certPem;
    const put = await t.call('PUT', '/api/v1/settings/mirror', { url: 'https://mirror.internal:5000/', ca_pem: caPem }, admin);
    expect(put).toMatchObject({ status: 200, body: { url: 'https://mirror.internal:5000', ca_pem: caPem } });
    expect((await t.call('GET', '/api/v1/settings/mirror', undefined, admin)).body).toEqual({
      url: 'https://mirror.internal:5000',
      ca_pem: caPem,
    });
    expect(t.manager.store.audit.list({ action: 'settings.mirror' })[0]).toMatchObject({
      actor: 'ada',
      target: 'https://mirror.internal:5000',
      details: { ca_pem: 'set' },
    });
    await t.call('PUT', '/api/v1/settings/mirror', { url: 'https://mirror.internal:5000' }, admin);
    expect((await t.call('GET', '/api/v1/settings/mirror', undefined, admin)).body).toEqual({
      url: 'https://mirror.internal:5000',
      ca_pem: null,
    });
  });

  test('plain http, credentials in the URL and a CA that is not a certificate are refused; operators may not change it', async () => {
    for (const body of [
      { url: 'http://mirror.internal' },
      { url: 'https://u:p@mirror.internal' },
      { url: 'https://mirror.internal/v2/' },
      { url: 'https://mirror.internal', ca_pem: 'not a pem' },
      {},
    ]) {
      expect((await t.call('PUT', '/api/v1/settings/mirror', body, admin)).status).toBe(400);
    }
    expect((await t.call('PUT', '/api/v1/settings/mirror', { url: 'https://mirror.internal' }, operator)).status).toBe(403);
    expect((await t.call('GET', '/api/v1/settings/mirror', undefined, operator)).status).toBe(403);
  });
});
