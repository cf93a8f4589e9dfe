// The calls of the certificates fleet route (contract: contract/certificates.ts).
import type { ApiCoreClass } from '../../api/core';

export const certificateCalls = <B extends ApiCoreClass>(Base: B) =>
  class extends Base {
    /** Every certificate the product issued (of one cluster when given), the soonest to expire first. */
    listCertificates = (clusterId?: string) => this.call('GET /api/v1/certificates', { query: { cluster_id: clusterId } });
    /** The manager CA's rotation under way, else the last one (null before any). */
    caRotation = () => this.call('GET /api/v1/ca/rotation', {});
  };
