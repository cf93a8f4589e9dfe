import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEndpointUrl, probeTlsEndpoint } from '../../../../main/core/checks/tls-endpoint';
import {
  closedPort,
  startPlainTcp,
  startTlsEndpoint,
  testCas,
  type TestEndpoint,
  type TlsEndpointKind,
} from '../../../support/tls-endpoints';

const NAME = 'endpoint.navin.test';
const DAY = 86_400_000;

describe('probeTlsEndpoint', () => {
  const endpoints = {} as Record<TlsEndpointKind, TestEndpoint>;

  beforeAll(async () => {
    for (const kind of ['valid', 'expired', 'untrusted', 'expiring', 'wrong-name'] as const)
      endpoints[kind] = await startTlsEndpoint({ kind, serverName: NAME });
  });
  afterAll(async () => {
    await Promise.all(Object.values(endpoints).map((e) => e.stop()));
  });

  const probe = (e: TestEndpoint, extra: Partial<Parameters<typeof probeTlsEndpoint>[0]> = {}) =>
    probeTlsEndpoint({ host: e.host, port: e.port, serverName: NAME, caPems: [e.caPem], now: new Date(), timeoutMs: 3000, ...extra });

  it('passes a trusted certificate for the name with its days left, TLS version and fingerprint', async () => {
    const r = await probe(endpoints.valid);
    expect(r).toMatchObject({
      verdict: 'ok',
      handshake_completed: true,
      error_code: null,
      server_name: NAME,
      target: `127.0.0.1:${endpoints.valid.port}`,
    });
    expect(['TLSv1.2', 'TLSv1.3']).toContain(r.tls_version);
    expect(r.cipher).toBeTruthy();
    expect(r.certificate!.days_left).toBe(364);
    expect(r.certificate!.subject).toContain(NAME);
    expect(r.certificate!.issuer).toContain('Navin Test CA');
    expect(r.certificate!.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });

  it('checks an IP target against the IP SANs when no server name is given', async () => {
    const r = await probeTlsEndpoint({ host: '127.0.0.1', port: endpoints.valid.port, caPems: [endpoints.valid.caPem], now: new Date() });
    expect(r.verdict).toBe('ok');
  });

  it('warns when fewer than 14 days are left', async () => {
    const r = await probe(endpoints.expiring);
    expect(r).toMatchObject({ verdict: 'expiring', handshake_completed: true });
    expect(r.certificate!.days_left).toBe(5);
    expect(r.message).toMatch(/5 days/);
    expect((await probe(endpoints.expiring, { warnDays: 3 })).verdict).toBe('ok');
  });

  it('fails an expired certificate from a trusted CA as expired, not untrusted', async () => {
    const r = await probe(endpoints.expired);
    expect(r).toMatchObject({ verdict: 'expired', error_code: 'CERT_HAS_EXPIRED' });
    expect(r.certificate!.days_left).toBeLessThan(0);
  });

  it('judges validity against the injected time, not the machine clock', async () => {
    const later = new Date(Date.now() + 400 * DAY);
    expect((await probe(endpoints.valid, { now: later })).verdict).toBe('expired');
    const inTen = await probe(endpoints.valid, { now: new Date(Date.now() + 355 * DAY) });
    expect(inTen).toMatchObject({ verdict: 'expiring' });
    expect(inTen.certificate!.days_left).toBe(9);
    // The expired certificate, seen from a time when it was still valid, is fine.
    expect((await probe(endpoints.expired, { now: new Date(Date.now() - 30 * DAY) })).verdict).toBe('ok');
    expect((await probe(endpoints.valid, { now: new Date(Date.now() - 30 * DAY) })).error_code).toBe('CERT_NOT_YET_VALID');
  });

  it('fails a certificate signed by another CA as untrusted', async () => {
    const r = await probe(endpoints.untrusted);
    expect(r).toMatchObject({ verdict: 'untrusted', handshake_completed: true });
    expect(r.error_code).toBeTruthy();
    expect(r.certificate!.issuer).toContain('Some Other CA');
  });

  it('trusts only the given CA PEMs: the system store does not know the test CA', async () => {
    expect((await probe(endpoints.valid, { caPems: [testCas().other.certPem] })).verdict).toBe('untrusted');
    expect((await probe(endpoints.valid, { caPems: [] })).verdict).toBe('untrusted');
  });

  it('fails a certificate for another name as name_mismatch', async () => {
    const r = await probe(endpoints['wrong-name']);
    expect(r).toMatchObject({ verdict: 'name_mismatch', error_code: 'name_mismatch' });
    expect(r.message).toContain(NAME);
  });

  it('reports a plain TCP listener as not TLS', async () => {
    const plain = await startPlainTcp();
    try {
      const r = await probeTlsEndpoint({ host: plain.host, port: plain.port, caPems: [], now: new Date(), timeoutMs: 3000 });
      expect(r.verdict).toBe('not_tls');
      expect(r.handshake_completed).toBe(false);
      expect(r.message).toMatch(/does not speak TLS/);
    } finally {
      await plain.stop();
    }
  });

  it('reports a closed port as unreachable', async () => {
    const r = await probeTlsEndpoint({ host: '127.0.0.1', port: await closedPort(), caPems: [], now: new Date(), timeoutMs: 3000 });
    expect(r).toMatchObject({ verdict: 'unreachable', error_code: 'ECONNREFUSED', certificate: null });
  });

  it('reports a silent listener as unreachable once the timeout passes, naming the timeout', async () => {
    const sockets: net.Socket[] = [];
    const server = net.createServer((s) => sockets.push(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const r = await probeTlsEndpoint({
        host: '127.0.0.1',
        port: (server.address() as net.AddressInfo).port,
        caPems: [],
        now: new Date(),
        timeoutMs: 300,
      });
      expect(r).toMatchObject({ verdict: 'unreachable', error_code: 'timeout' });
      expect(r.message).toContain('300 ms');
      expect(r.duration_ms).toBeGreaterThanOrEqual(290);
    } finally {
      sockets.forEach((s) => s.destroy());
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('parseEndpointUrl', () => {
  it('reads scheme, host and port, with 443 and 80 by default', () => {
    expect(parseEndpointUrl('https://vault.bank.internal')).toEqual({ scheme: 'https', host: 'vault.bank.internal', port: 443 });
    expect(parseEndpointUrl('https://vault.bank.internal:8200/v1')).toEqual({ scheme: 'https', host: 'vault.bank.internal', port: 8200 });
    expect(parseEndpointUrl('http://10.0.0.5')).toEqual({ scheme: 'http', host: '10.0.0.5', port: 80 });
    expect(parseEndpointUrl('tls://[fd00::5]:4222')).toEqual({ scheme: 'tls', host: 'fd00::5', port: 4222 });
    expect(parseEndpointUrl('tcp://etcd-1:2379')).toEqual({ scheme: 'tcp', host: 'etcd-1', port: 2379 });
  });

  it('refuses tls:// and tcp:// without a port, other schemes and non-URLs', () => {
    expect(parseEndpointUrl('tls://nats.internal')).toBeNull();
    expect(parseEndpointUrl('tcp://etcd-1')).toBeNull();
    expect(parseEndpointUrl('ftp://x:21')).toBeNull();
    expect(parseEndpointUrl('not a url')).toBeNull();
  });
});
