// The calls of the component and command routes (contract: contract/commands.ts): the desired and observed
// components, the operations on them (each through the manager's lifecycle gate), commands and receipts.
import type { ComponentAction, ManagedComponentSpec } from '../../../../preload/api';
import type { ApiCoreClass } from '../../api/core';

export const componentCalls = <B extends ApiCoreClass>(Base: B) =>
  class extends Base {
    listComponents = (id: string) => this.call('GET /api/v1/clusters/:id/components', { params: { id } });
    applyComponent(id: string, name: string, spec: ManagedComponentSpec, approvalId?: string) {
      return this.call('POST /api/v1/clusters/:id/components', {
        params: { id },
        body: approvalId ? { name, spec, approval_id: approvalId } : { name, spec },
      });
    }
    deleteComponent = (id: string, name: string, approvalId?: string) =>
      this.call('DELETE /api/v1/clusters/:id/components/:name', { params: { id, name }, query: { approval_id: approvalId } });
    componentAction(id: string, name: string, action: ComponentAction, approvalId?: string) {
      return this.call('POST /api/v1/clusters/:id/components/:name/actions', {
        params: { id, name },
        body: approvalId ? { action, approval_id: approvalId } : { action },
      });
    }
    listCommands = (query: { cluster_id?: string; limit?: number } = {}) => this.call('GET /api/v1/commands', { query });
    getCommand = (id: string) => this.call('GET /api/v1/commands/:id', { params: { id } });
  };
