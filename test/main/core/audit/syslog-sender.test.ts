import { describe, expect, it, vi } from 'vitest';
import dns from 'node:dns';
import { probeSyslog } from '../../../../main/core/audit/syslog-sender';
import { startSyslogListener } from '../../../support/syslog-listener';
import { closedPort } from '../../../support/tls-endpoints';
import dgram from 'node:dgram';

/** A UDP port nothing listens on (bound, learnt and released). */
async function closedUdpPort(): Promise<number> {
  const s = dgram.createSocket('udp4');
  await new Promise<void>((r) => s.bind(0, '127.0.0.1', () => r()));
  const port = s.address().port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('probeSyslog', () => {
  it('answers a UDP target whose name does not resolve with the resolver error, not a timeout, and nothing thrown', async () => {
    // The resolver is stood in for: a test sends no query to the machine's DNS server.
    const real = dns.lookup;
    const lookup = vi
      .spyOn(dns, 'lookup')
      .mockImplementation(((host: string, o: never, cb: (e: Error | null) => void) =>
        host === 'no-such-host.invalid'
          ? process.nextTick(() => cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })))
          : real(host, o, cb)) as never);
    try {
      const r = await probeSyslog({ host: 'no-such-host.invalid', port: 514, transport: 'udp' }, 2000);
      expect(r).toMatchObject({ reachable: false, transport: 'udp', error_code: 'ENOTFOUND' });
      expect(lookup).toHaveBeenCalled();
    } finally {
      lookup.mockRestore();
    }
  });

  it('delivers over TLS (RFC 5425) to a receiver whose certificate the given CA signs, and refuses an unknown one', async () => {
    const l = await startSyslogListener('tls');
    try {
      const r = await probeSyslog({ host: '127.0.0.1', port: l.port, transport: 'tls', ca_pem: l.caPem }, 2000);
      expect(r).toMatchObject({ reachable: true, transport: 'tls', target: `tls://127.0.0.1:${l.port}` });
      expect((await l.waitFor(1))[0]).toMatch(/ navin\.probe /);
      // Without that CA the system store does not know the receiver: not reachable, with the certificate error.
      const untrusted = await probeSyslog({ host: '127.0.0.1', port: l.port, transport: 'tls' }, 2000);
      expect(untrusted).toMatchObject({ reachable: false });
      expect(untrusted.error_code).toMatch(/CERT|SELF_SIGNED|UNABLE_TO/);
      expect(l.messages).toHaveLength(1);
    } finally {
      await l.stop();
    }
  });

  for (const transport of ['tcp', 'udp'] as const) {
    it(`says a live ${transport} listener is reachable, and the listener gets a navin.probe message`, async () => {
      const l = await startSyslogListener(transport);
      try {
        const r = await probeSyslog({ host: '127.0.0.1', port: l.port, transport }, 2000);
        expect(r).toMatchObject({ reachable: true, transport, target: `${transport}://127.0.0.1:${l.port}`, error_code: null });
        const [m] = await l.waitFor(1);
        expect(m).toMatch(/^<\d+>1 \S+ \S+ navin-manager \d+ navin\.probe \[navin@32473 probe="true"\] /);
      } finally {
        await l.stop();
      }
    });
  }

  it('says a closed TCP port is not reachable, with ECONNREFUSED', async () => {
    const r = await probeSyslog({ host: '127.0.0.1', port: await closedPort(), transport: 'tcp' }, 2000);
    expect(r).toMatchObject({ reachable: false, transport: 'tcp', error_code: 'ECONNREFUSED' });
  });

  it('says a closed UDP port is not reachable once the port-unreachable comes back as ECONNREFUSED', async () => {
    const r = await probeSyslog({ host: '127.0.0.1', port: await closedUdpPort(), transport: 'udp' }, 2000);
    expect(r).toMatchObject({ reachable: false, transport: 'udp', error_code: 'ECONNREFUSED' });
  });
});
