// The calls of the API token routes of a user (contract: contract/tokens.ts).
import type { ApiTokenCreate } from '../../../../preload/api';
import type { ApiCoreClass } from '../../api/core';

export const tokenCalls = <B extends ApiCoreClass>(Base: B) =>
  class extends Base {
    listUserTokens = (name: string) => this.call('GET /api/v1/users/:name/tokens', { params: { name } });
    createUserToken = (name: string, input: ApiTokenCreate) =>
      this.call('POST /api/v1/users/:name/tokens', { params: { name }, body: input });
    revokeUserToken = (name: string, id: string) => this.call('DELETE /api/v1/users/:name/tokens/:id', { params: { name, id } });
  };
