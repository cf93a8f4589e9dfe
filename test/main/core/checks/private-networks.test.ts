import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyHost, isPrivateAddress } from '../../../../main/core/checks/private-networks';
import { startDnsServer, type DnsServer } from '../../../support/dns-server';

describe('isPrivateAddress', () => {
  it('accepts RFC 1918, loopback, link-local, shared address space, ULA and IPv4-mapped private addresses', () => {
    for (const ip of [
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.254',
      '192.168.1.1',
      '127.0.0.1',
      '169.254.10.1',
      '100.64.0.1',
      '100.127.255.254',
      'fd12:3456::1',
      'fc00::1',
      '::1',
      'fe80::1',
      '::ffff:10.1.2.3',
      '::ffff:c0a8:101',
    ])
      expect(isPrivateAddress(ip), ip).toBe(true);
  });

  it('refuses public addresses, their IPv4-mapped forms and non-addresses', () => {
    for (const ip of [
      '8.8.8.8',
      '172.32.0.1',
      '172.15.255.255',
      '100.128.0.1',
      '192.169.0.1',
      '2001:db8::1',
      '2a00:1450::1',
      '::ffff:8.8.8.8',
      'fec0::1',
      'bank.test',
      '',
    ])
      expect(isPrivateAddress(ip), ip).toBe(false);
  });
});

describe('classifyHost', () => {
  let dns: DnsServer;
  beforeAll(async () => {
    dns = await startDnsServer({ records: { 'vault.bank.test': '10.1.0.5', 'webhook.bank.test': '203.0.113.7' } });
  });
  afterAll(() => dns.stop());

  it('a name whose addresses are all private is private, with the addresses as evidence', async () => {
    expect(await classifyHost('vault.bank.test', dns.servers)).toMatchObject({
      private: true,
      addresses: ['10.1.0.5'],
      public_addresses: [],
      error_code: null,
    });
  });

  it('a name resolving to a public address is not private and names that address', async () => {
    const r = await classifyHost('webhook.bank.test', dns.servers);
    expect(r).toMatchObject({ private: false, public_addresses: ['203.0.113.7'] });
    expect(r.message).toContain('203.0.113.7');
  });

  it('an IP needs no lookup; a name that does not resolve is not proven private', async () => {
    expect(await classifyHost('[fd00::1]', [])).toMatchObject({ private: true, addresses: ['fd00::1'] });
    expect(await classifyHost('missing.bank.test', dns.servers)).toMatchObject({ private: false, error_code: 'ENOTFOUND' });
  });
});
