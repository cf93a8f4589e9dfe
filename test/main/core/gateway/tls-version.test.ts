// Both listeners speak TLS 1.2 or newer only: a client that offers nothing older than TLS 1.1 is refused by the
// server with a protocol_version alert (alert 70). The client lowers OpenSSL's security level so that it can
// offer TLS 1.1 at all, and a protocol_version alert is what a server whose floor is 1.2 answers (a server
// accepting 1.1 at the default level fails later, on its signature algorithms, with another alert).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testManager, type TestManager } from '../../../support/manager';
import { startListeners, type RunningListeners } from '../../../support/listeners';
import { agentCert } from '../../../support/test-gateway';
import { handshake } from '../../../support/tls-handshake';

const PROTOCOL_VERSION_ALERT = { ok: false, code: 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION' };

describe('the TLS versions the listeners accept', () => {
  let t: TestManager;
  let listeners: RunningListeners;
  let agent: { certPem: string; keyPem: string };

  beforeAll(async () => {
    t = testManager();
    listeners = await startListeners(t);
    const cluster = t.manager.clusters.create({ name: 'edge' }, 'test');
    agent = agentCert(t, cluster.id);
  });
  afterAll(async () => {
    await listeners?.close();
    t?.close();
  });

  test('the gateway refuses a client offering only TLS 1.1 or 1.0 with a protocol_version alert, even one holding an agent certificate', async () => {
    for (const version of ['TLSv1.1', 'TLSv1'] as const)
      expect(await handshake(listeners.gateway.url, { version, cert: agent }), version).toMatchObject(PROTOCOL_VERSION_ALERT);
    expect(await handshake(listeners.gateway.url, { version: 'TLSv1.2', cert: agent })).toEqual({ ok: true, protocol: 'TLSv1.2' });
    expect(await handshake(listeners.gateway.url, { version: 'TLSv1.3', cert: agent })).toEqual({ ok: true, protocol: 'TLSv1.3' });
  });

  test('the console refuses a client offering only TLS 1.1 or 1.0 with a protocol_version alert', async () => {
    for (const version of ['TLSv1.1', 'TLSv1'] as const)
      expect(await handshake(listeners.console.url, { version }), version).toMatchObject(PROTOCOL_VERSION_ALERT);
    expect(await handshake(listeners.console.url, { version: 'TLSv1.2' })).toEqual({ ok: true, protocol: 'TLSv1.2' });
  });
});
