// Four-eyes approvals.
import type { DomainModule } from '../module';
import { tablesFor } from '../domain-tables';
import { Approvals } from './approvals';
import { ApprovalsTable } from './approvals-table';
import { approvalRoutes } from './routes';

declare module '../domain-tables' {
  interface DomainTables {
    readonly approvals: ApprovalsTable;
  }
}
declare module '../manager' {
  interface Manager {
    readonly approvals: Approvals;
  }
}

export const approvalsModule: DomainModule = {
  name: 'approvals',
  tables: (db) => ({ approvals: new ApprovalsTable(db) }),
  build: (m) => ({
    approvals: new Approvals(m.store, tablesFor(m.tables, 'accounts', 'approvals', 'clusters', 'commands', 'services'), m.clock, m.events),
  }),
  routes: approvalRoutes,
};
