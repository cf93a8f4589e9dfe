// Accounts: logging in (sessions, second factor, first-run setup), users and their API tokens.
import type { DomainModule } from '../module';
import { sessionRoutes } from './session-routes';
import { tokenRoutes } from './token-routes';
import { userRoutes } from './user-routes';

export const accountsModule: DomainModule = {
  name: 'accounts',
  routes: (router) => {
    sessionRoutes(router);
    userRoutes(router);
    tokenRoutes(router);
  },
};
