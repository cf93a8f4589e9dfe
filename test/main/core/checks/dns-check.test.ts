import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forwardMatches, resolveForward, resolveReverse, reverseMatches } from '../../../../main/core/checks/dns-check';
import { startDnsServer, type DnsServer } from '../../../support/dns-server';

describe('DNS checks against a real DNS server', () => {
  let dns: DnsServer;

  beforeAll(async () => {
    dns = await startDnsServer({
      records: { 'node-1.bank.test': '10.20.0.11', 'node-2.bank.test': '10.20.0.99' },
      ptr: { '10.20.0.11': 'node-1.bank.test' },
    });
  });
  afterAll(() => dns.stop());

  it('a forward lookup that resolves to the recorded address matches', async () => {
    const r = await resolveForward(dns.servers, 'node-1.bank.test');
    expect(r).toMatchObject({
      kind: 'forward',
      query: 'node-1.bank.test',
      servers: dns.servers,
      answers: ['10.20.0.11'],
      error_code: null,
    });
    expect(forwardMatches(r, '10.20.0.11')).toBe(true);
    expect(forwardMatches(await resolveForward(dns.servers, 'NODE-1.bank.test.'), '10.20.0.11')).toBe(true);
  });

  it('a name that resolves elsewhere does not match the recorded address', async () => {
    const r = await resolveForward(dns.servers, 'node-2.bank.test');
    expect(r.answers).toEqual(['10.20.0.99']);
    expect(forwardMatches(r, '10.20.0.12')).toBe(false);
  });

  it('an unknown name is NXDOMAIN, said so, and matches nothing', async () => {
    const r = await resolveForward(dns.servers, 'missing.bank.test');
    expect(r).toMatchObject({ answers: [], error_code: 'ENOTFOUND' });
    expect(r.message).toMatch(/NXDOMAIN/);
    expect(forwardMatches(r, '10.20.0.11')).toBe(false);
  });

  it('a reverse lookup names the FQDN, case and trailing dot ignored', async () => {
    const r = await resolveReverse(dns.servers, '10.20.0.11');
    expect(r).toMatchObject({ kind: 'reverse', answers: ['node-1.bank.test'], error_code: null });
    expect(reverseMatches(r, 'Node-1.Bank.Test.')).toBe(true);
    expect(reverseMatches(r, 'node-2.bank.test')).toBe(false);
  });

  it('an address without a PTR record fails the reverse check', async () => {
    const r = await resolveReverse(dns.servers, '10.20.0.99');
    expect(r).toMatchObject({ answers: [], error_code: 'ENOTFOUND' });
    expect(r.message).toMatch(/no PTR record/);
    expect(reverseMatches(r, 'node-2.bank.test')).toBe(false);
  });

  it('a server that does not answer is reported with its reason, not hung on', async () => {
    const r = await resolveForward(['127.0.0.1:9'], 'node-1.bank.test', 500);
    expect(r.answers).toEqual([]);
    expect(['ECONNREFUSED', 'ETIMEOUT']).toContain(r.error_code);
    expect((await resolveReverse([], 'not-an-ip')).error_code).toBe('invalid_address');
    expect((await resolveForward(['nonsense::::'], 'x.test')).error_code).toBe('invalid_server');
  });
});
