// Accounts: logging in (sessions, second factor, first-run setup), users and their API tokens.
import { tablesFor } from '../domain-tables';
import type { Router } from '../http/router';
import type { BuiltBefore } from '../modules';
import { MFA_ROLES } from '../profiles/profile-rules';
import { Accounts } from './accounts';
import { AccountsTables } from './accounts-tables';
import { ApiTokensTable } from './api-tokens-table';
import { sessionRoutes } from './session-routes';
import { tokenRoutes } from './token-routes';
import { userRoutes } from './user-routes';

function build(m: BuiltBefore<'accounts'>) {
  return {
    accounts: new Accounts(m.store, tablesFor(m.tables, 'accounts', 'apiTokens'), m.clock, {
      protector: m.protector,
      mfaRequiredRoles: () => [...new Set(m.tables.clusters.profilesInUse().flatMap((p) => MFA_ROLES[p]))],
    }),
  };
}

function routes(router: Router): void {
  sessionRoutes(router);
  userRoutes(router);
  tokenRoutes(router);
}

export const accountsModule = { name: 'accounts', tables: { accounts: AccountsTables, apiTokens: ApiTokensTable }, build, routes } as const;
