// The audit log and its remote forwarding.
import type { DomainModule } from '../module';
import { tablesFor } from '../domain-tables';
import { AuditTrail } from './audit-trail';
import { auditRoutes } from './routes';
import { SyslogForwarder } from './syslog-forwarder';

declare module '../manager' {
  interface Manager {
    /** Forwards the audit log to the remote syslog target; started by the process that serves. */
    readonly syslog: SyslogForwarder;
    /** The audit log as the console reads it, and its hash chain's verdict. */
    readonly audit: AuditTrail;
  }
}

export const auditModule: DomainModule = {
  name: 'audit',
  build: (m) => ({
    syslog: new SyslogForwarder({ store: m.store, tables: tablesFor(m.tables, 'settings'), clock: m.clock }),
    audit: new AuditTrail(m.store.audit),
  }),
  close: (m) => void m.syslog.stop(),
  routes: auditRoutes,
};
