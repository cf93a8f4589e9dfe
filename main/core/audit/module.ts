// The audit log and its remote forwarding.
import { tablesFor } from '../domain-tables';
import type { Manager } from '../manager';
import type { BuiltBefore } from '../modules';
import { AuditTrail } from './audit-trail';
import { auditRoutes } from './routes';
import { SyslogForwarder } from './syslog-forwarder';

function build(m: BuiltBefore<'audit'>) {
  return {
    /** Forwards the audit log to the remote syslog target; started by the process that serves. */
    syslog: new SyslogForwarder({ store: m.store, tables: tablesFor(m.tables, 'settings'), clock: m.clock }),
    /** The audit log as the console reads it, and its hash chain's verdict. */
    audit: new AuditTrail(m.store.audit),
  };
}

function close(m: Manager): void {
  void m.syslog.stop();
}

export const auditModule = { name: 'audit', build, close, routes: auditRoutes } as const;
