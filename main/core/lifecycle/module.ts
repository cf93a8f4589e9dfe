// The lifecycle of cluster operations and the four-eyes acts that are no command (no routes of their own: the
// domains' routes call them).
import type { DomainModule } from '../module';
import { tablesFor } from '../domain-tables';
import { FourEyesActs } from './four-eyes-acts';
import { Lifecycle } from './lifecycle';
import { LifecycleTables } from './lifecycle-tables';

declare module '../domain-tables' {
  interface DomainTables {
    readonly lifecycle: LifecycleTables;
  }
}
declare module '../manager' {
  interface Manager {
    /** Every operation on a cluster goes through here: profile, four-eyes, preflight, then the command. */
    readonly lifecycle: Lifecycle;
    /** Four eyes for the acts that are no command: deletions, identity re-issues, admins, MFA resets, release keys. */
    readonly fourEyes: FourEyesActs;
  }
}

export const lifecycleModule: DomainModule = {
  name: 'lifecycle',
  tables: (db) => ({ lifecycle: new LifecycleTables(db) }),
  build: (m) => ({
    lifecycle: new Lifecycle({
      store: m.store,
      tables: tablesFor(m.tables, 'clusters', 'commands'),
      clock: m.clock,
      commands: m.commands,
      profiles: m.profiles,
      preflight: m.preflight,
      approvals: m.approvals,
      events: m.events,
    }),
    fourEyes: new FourEyesActs({
      store: m.store,
      tables: tablesFor(m.tables, 'accounts', 'clusters', 'hosts', 'keys'),
      approvals: m.approvals,
      events: m.events,
    }),
  }),
};
