// Console settings for the remote audit (syslog target, its forwarder's state and a live test) and for the
// DNS servers the preflight asks.
import type { Manager } from '../../core/manager';
import type { SyslogStatusSource } from '../../core/audit/syslog-forwarder';
import { probeSyslog } from '../../core/audit/syslog-sender';
import { checkSyslogTarget, clearSyslogTarget, setSyslogTarget, syslogTarget } from '../../core/audit/syslog-settings';
import { dnsServers, setDnsServers } from '../../core/checks/dns-settings';
import { ApiError } from '../api-error';
import { objectBody } from '../body';
import { ok, type Router } from '../router';

/** The forwarder runs only where the composition root started one; elsewhere its status is null. */
const forwarderStatus = (manager: Manager) => (manager as Manager & { syslog?: SyslogStatusSource }).syslog?.status() ?? null;

const hasFields = (body: unknown): boolean => typeof body === 'object' && body !== null && Object.keys(body).length > 0;

export function settingsRoutes(router: Router): void {
  router.authed('GET', '/api/v1/settings/syslog', 'viewer', ({ manager }) =>
    ok({ target: syslogTarget(manager.store), forwarder: forwarderStatus(manager) }),
  );

  router.authed('PUT', '/api/v1/settings/syslog', 'admin', ({ manager, body, principal }) =>
    ok({ target: setSyslogTarget(manager.store, objectBody(body), principal.actor) }),
  );

  router.authed('DELETE', '/api/v1/settings/syslog', 'admin', ({ manager, principal }) => {
    clearSyslogTarget(manager.store, principal.actor);
    return { status: 204, body: null };
  });

  // A body tests a target before it is saved; without one, the saved target is tested.
  router.authed('POST', '/api/v1/settings/syslog/test', 'admin', async ({ manager, body }) => {
    const target = hasFields(body) ? checkSyslogTarget(body) : syslogTarget(manager.store);
    if (!target)
      throw new ApiError(
        'syslog_not_configured',
        'no syslog target is set; PUT /api/v1/settings/syslog first, or send { host, port, transport } to test one',
      );
    return ok(await probeSyslog(target, 5000, manager.clock.now()));
  });

  router.authed('GET', '/api/v1/settings/dns', 'viewer', ({ manager }) => ok({ servers: dnsServers(manager.store) }));

  router.authed('PUT', '/api/v1/settings/dns', 'admin', ({ manager, body, principal }) =>
    ok({ servers: setDnsServers(manager.store, objectBody(body).servers, principal.actor) }),
  );
}
