// Accounts: logging in (sessions, second factor, first-run setup), users and their API tokens.
import type { DomainModule } from '../module';
import { tablesFor } from '../domain-tables';
import { MFA_ROLES } from '../profiles/profile-rules';
import { Accounts } from './accounts';
import { AccountsTables } from './accounts-tables';
import { ApiTokensTable } from './api-tokens-table';
import { sessionRoutes } from './session-routes';
import { tokenRoutes } from './token-routes';
import { userRoutes } from './user-routes';

declare module '../domain-tables' {
  interface DomainTables {
    readonly accounts: AccountsTables;
    readonly apiTokens: ApiTokensTable;
  }
}
declare module '../manager' {
  interface Manager {
    readonly accounts: Accounts;
  }
}

export const accountsModule: DomainModule = {
  name: 'accounts',
  tables: (db) => ({ accounts: new AccountsTables(db), apiTokens: new ApiTokensTable(db) }),
  build: (m) => ({
    accounts: new Accounts(m.store, tablesFor(m.tables, 'accounts', 'apiTokens'), m.clock, {
      protector: m.protector,
      mfaRequiredRoles: () => [...new Set(m.tables.clusters.profilesInUse().flatMap((p) => MFA_ROLES[p]))],
    }),
  }),
  routes: (router) => {
    sessionRoutes(router);
    userRoutes(router);
    tokenRoutes(router);
  },
};
