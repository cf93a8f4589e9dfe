// The calls of the service catalog (contract: contract/catalog.ts), read only: its services with their
// versions (the Services tab's install form), and one service's whole descriptor.
import type { ApiCoreClass } from '../../api/core';

export const catalogCalls = <B extends ApiCoreClass>(Base: B) =>
  class extends Base {
    listCatalog = () => this.call('GET /api/v1/catalog');
    getCatalogService = (service: string) => this.call('GET /api/v1/catalog/:service', { params: { service } });
  };
