// Console settings (contract: contract/settings.ts): the remote audit (syslog target, its forwarder's state
// and a live test) and the DNS servers the preflight asks.
import { noContent, ok, type Router } from '../http/router';

export function settingsRoutes(router: Router): void {
  router.authed('GET', '/api/v1/settings/syslog', 'viewer', ({ manager }) => ok(manager.settings.syslog()));

  router.authed('PUT', '/api/v1/settings/syslog', 'admin', ({ manager, body, principal }) =>
    ok({ target: manager.settings.setSyslog(body, principal.actor) }),
  );

  router.authed('DELETE', '/api/v1/settings/syslog', 'admin', ({ manager, principal }) => {
    manager.settings.clearSyslog(principal.actor);
    return noContent();
  });

  // A body tests a target before it is saved; without one (or an empty one), the saved target is tested.
  router.authed('POST', '/api/v1/settings/syslog/test', 'admin', async ({ manager, body }) => ok(await manager.settings.testSyslog(body)));

  router.authed('GET', '/api/v1/settings/dns', 'viewer', ({ manager }) => ok({ servers: manager.settings.dnsServers() }));

  router.authed('PUT', '/api/v1/settings/dns', 'admin', ({ manager, body, principal }) =>
    ok({ servers: manager.settings.setDnsServers(body.servers, principal.actor) }),
  );
}
