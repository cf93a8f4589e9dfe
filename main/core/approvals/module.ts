// Four-eyes approvals.
import { tablesFor } from '../domain-tables';
import type { BuiltBefore } from '../modules';
import { Approvals } from './approvals';
import { ApprovalsTable } from './approvals-table';
import { approvalRoutes } from './routes';

function build(m: BuiltBefore<'approvals'>) {
  return {
    approvals: new Approvals(m.store, tablesFor(m.tables, 'accounts', 'approvals', 'clusters', 'commands', 'services'), m.clock, m.events),
  };
}

export const approvalsModule = { name: 'approvals', tables: { approvals: ApprovalsTable }, build, routes: approvalRoutes } as const;
