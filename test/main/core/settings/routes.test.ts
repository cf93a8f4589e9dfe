import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_SCHEMAS } from '../../../../main/contract';
import { Router, type Credentials, type Method } from '../../../../main/core/http/router';
import { settingsRoutes } from '../../../../main/core/settings/routes';
import { SyslogForwarder } from '../../../../main/core/audit/syslog-forwarder';
import type { Manager } from '../../../../main/core/manager';
import { testManager, type TestManager } from '../../../support/manager';
import { startSyslogListener, type SyslogListener } from '../../../support/syslog-listener';
import { closedPort } from '../../../support/tls-endpoints';

const PORT_RULE = 'port must be an integer from 1 to 65535 (syslog is 514, or 6514 with TLS)';
const CA_RULE = 'ca_pem is the PEM text of the CA certificate that signs the syslog receiver';

describe('settings API: syslog target and DNS servers', () => {
  let t: TestManager;
  let admin: Credentials;
  let viewer: Credentials;
  let listener: SyslogListener;
  // The routes on their own router, so the test holds whether or not the console API lists them yet.
  const router = new Router();
  settingsRoutes(router);
  const call = (method: Method, path: string, body?: unknown, credentials: Credentials = {}, manager: Manager = t.manager) =>
    router.handle(manager, { method, path, query: new URLSearchParams(), body, credentials });
  const auditActions = () => t.manager.store.audit.list({ action: undefined }).map((r) => r.action);

  beforeAll(async () => {
    t = testManager();
    admin = await t.login('alice', 'admin');
    viewer = await t.login('victor', 'viewer');
    listener = await startSyslogListener('tcp');
  });
  afterAll(async () => {
    await listener.stop();
    t.close();
  });

  it('starts with no syslog target, no forwarder status and the system resolvers', async () => {
    const syslog = (await call('GET', '/api/v1/settings/syslog', undefined, viewer)).body as { target: unknown; forwarder: unknown };
    expect(syslog.target).toBeNull();
    // The manager may carry a forwarder (not started here): its status then says there is nothing to send.
    if (syslog.forwarder !== null) expect(syslog.forwarder).toMatchObject({ target: null, pending: 0, running: false });
    expect((await call('GET', '/api/v1/settings/dns', undefined, viewer)).body).toEqual({ servers: [] });
    expect((await call('GET', '/api/v1/settings/dns')).status).toBe(401);
  });

  it('lets only an admin set the target, validates it and audits the change', async () => {
    expect(
      (await call('PUT', '/api/v1/settings/syslog', { host: '127.0.0.1', port: listener.port, transport: 'tcp' }, viewer)).status,
    ).toBe(403);
    for (const [body, field] of [
      [{ host: 'bad host!', port: 514, transport: 'tcp' }, 'host'],
      [{ host: 'siem.bank.test', port: 0, transport: 'tcp' }, 'port'],
      [{ host: 'siem.bank.test', port: 70000, transport: 'udp' }, 'port'],
      [{ host: 'siem.bank.test', port: 514, transport: 'http' }, 'transport'],
    ] as const) {
      const res = await call('PUT', '/api/v1/settings/syslog', body, admin);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { code: 'invalid_field', field } });
    }
    const res = await call('PUT', '/api/v1/settings/syslog', { host: '127.0.0.1', port: listener.port, transport: 'tcp' }, admin);
    expect(res).toMatchObject({ status: 200, body: { target: { host: '127.0.0.1', port: listener.port, transport: 'tcp' } } });
    expect((await call('GET', '/api/v1/settings/syslog', undefined, viewer)).body).toMatchObject({ target: { port: listener.port } });
    const row = t.manager.store.audit.list({ action: 'settings.syslog' })[0]!;
    expect(row).toMatchObject({ actor: 'alice', target: `tcp://127.0.0.1:${listener.port}` });
  });

  it("judges a target's and a DNS list's JSON shape by the contract's schemas before the core, naming the field and its rule", async () => {
    const before = auditActions().length;
    for (const [body, field, message] of [
      [{ port: 514, transport: 'tcp' }, 'host', 'host must be a host name or an IP address, e.g. siem.bank.internal'],
      [{ host: 'siem.bank.test', port: 514.5, transport: 'tcp' }, 'port', PORT_RULE],
      [{ host: 'siem.bank.test', port: '514', transport: 'tcp' }, 'port', PORT_RULE],
      [{ host: 'siem.bank.test', port: 6514, transport: 'tls', ca_pem: 5 }, 'ca_pem', CA_RULE],
    ] as const) {
      const res = await call('PUT', '/api/v1/settings/syslog', body, admin);
      expect(res.body, JSON.stringify(body)).toEqual({ error: { code: 'invalid_field', field, message } });
    }
    const nine = Array.from({ length: 9 }, (_, i) => `10.0.0.${i + 1}`);
    expect((await call('PUT', '/api/v1/settings/dns', { servers: nine }, admin)).body).toMatchObject({
      error: { code: 'invalid_field', field: 'servers', message: 'at most 8 DNS servers' },
    });
    expect((await call('PUT', '/api/v1/settings/dns', { servers: ['10.0.0.53', 53] }, admin)).body).toMatchObject({
      error: { code: 'invalid_field', field: 'servers[1]' },
    });
    expect((await call('POST', '/api/v1/settings/syslog/test', [], admin)).body).toMatchObject({ error: { code: 'bad_request' } });
    expect(auditActions()).toHaveLength(before);
    for (const route of ['PUT /api/v1/settings/syslog', 'POST /api/v1/settings/syslog/test', 'PUT /api/v1/settings/dns'])
      expect(Object.keys(ROUTE_SCHEMAS)).toContain(route);
  });

  it('tests the saved target or one given in the body, admin only', async () => {
    expect((await call('POST', '/api/v1/settings/syslog/test', {}, viewer)).status).toBe(403);
    const live = await call('POST', '/api/v1/settings/syslog/test', {}, admin);
    expect(live.body).toMatchObject({ reachable: true, transport: 'tcp', error_code: null });
    expect((await listener.waitFor(1))[0]).toContain(' navin.probe ');
    const closed = await call(
      'POST',
      '/api/v1/settings/syslog/test',
      { host: '127.0.0.1', port: await closedPort(), transport: 'tcp' },
      admin,
    );
    expect(closed.body).toMatchObject({ reachable: false, error_code: 'ECONNREFUSED' });
  });

  it('shows the forwarder status when the manager runs one', async () => {
    const syslog = new SyslogForwarder({ store: t.manager.store, tables: t.manager.tables, clock: t.manager.clock });
    await syslog.flush();
    const res = await call('GET', '/api/v1/settings/syslog', undefined, viewer, { ...t.manager, syslog } as Manager);
    expect(res.body).toMatchObject({ forwarder: { target: `tcp://127.0.0.1:${listener.port}`, pending: 0, consecutive_failures: 0 } });
  });

  it('removes the target with DELETE (audited); testing then says none is configured', async () => {
    expect((await call('DELETE', '/api/v1/settings/syslog', undefined, admin)).status).toBe(204);
    expect((await call('GET', '/api/v1/settings/syslog', undefined, viewer)).body).toMatchObject({ target: null });
    expect(t.manager.store.audit.list({ action: 'settings.syslog' })[0]!.details).toEqual({ cleared: true });
    const res = await call('POST', '/api/v1/settings/syslog/test', undefined, admin);
    expect(res).toMatchObject({ status: 409, body: { error: { code: 'syslog_not_configured' } } });
  });

  it('sets the DNS servers (ip or ip:port), refuses anything else, and audits the change', async () => {
    expect((await call('PUT', '/api/v1/settings/dns', { servers: ['10.0.0.53'] }, viewer)).status).toBe(403);
    for (const bad of [['dns.bank.test'], ['10.0.0.53:99999'], ['fd00::zz'], 'x']) {
      const res = await call('PUT', '/api/v1/settings/dns', { servers: bad }, admin);
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    const servers = ['10.0.0.53', '10.0.1.53:5353', 'fd00::53', '[fd00::54]:5353'];
    expect((await call('PUT', '/api/v1/settings/dns', { servers }, admin)).body).toEqual({ servers });
    expect((await call('GET', '/api/v1/settings/dns', undefined, viewer)).body).toEqual({ servers });
    expect(t.manager.store.audit.list({ action: 'settings.dns' })[0]).toMatchObject({ actor: 'alice', details: { servers } });
    expect(auditActions()).toContain('settings.dns');
  });
});
