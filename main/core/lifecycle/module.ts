// The lifecycle of cluster operations and the four-eyes acts that are no command (no routes of their own: the
// domains' routes call them).
import { tablesFor } from '../domain-tables';
import { serviceDeps } from '../module';
import type { BuiltBefore } from '../modules';
import { FourEyesActs } from './four-eyes-acts';
import { Lifecycle } from './lifecycle';
import { LifecycleTables } from './lifecycle-tables';

function build(m: BuiltBefore<'lifecycle'>) {
  return {
    /** Every operation on a cluster goes through here: profile, four-eyes, preflight, then the command. */
    lifecycle: new Lifecycle({
      ...serviceDeps(m, 'clusters', 'commands'),
      commands: m.commands,
      profiles: m.profiles,
      preflight: m.preflight,
      approvals: m.approvals,
    }),
    /** Four eyes for the acts that are no command: deletions, identity re-issues, admins, MFA resets, release keys. */
    fourEyes: new FourEyesActs({
      store: m.store,
      tables: tablesFor(m.tables, 'accounts', 'clusters', 'hosts', 'keys'),
      approvals: m.approvals,
      events: m.events,
    }),
  };
}

export const lifecycleModule = { name: 'lifecycle', tables: { lifecycle: LifecycleTables }, build } as const;
