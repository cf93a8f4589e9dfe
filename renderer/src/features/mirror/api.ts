// The calls of the Mirror screen (contract: contract/mirror.ts): what the mirror holds, bundle imports, and
// the release keys trusted to sign bundles.
import type { ApiCoreClass } from '../../api/core';

export const mirrorCalls = <B extends ApiCoreClass>(Base: B) =>
  class extends Base {
    mirrorInventory = () => this.call('GET /api/v1/mirror');
    mirrorImports = () => this.call('GET /api/v1/mirror/imports');
    mirrorImport = (id: string) => this.call('GET /api/v1/mirror/imports/:id', { params: { id } });
    /** Starts importing the bundle file at `path` on the manager's workstation (202: the import runs on). */
    startMirrorImport = (path: string) => this.call('POST /api/v1/mirror/imports', { body: { path } });
    releaseKeys = () => this.call('GET /api/v1/settings/release-keys');
    trustReleaseKey = (publicKeyPem: string, label: string, approvalId?: string) =>
      this.call('POST /api/v1/settings/release-keys', {
        body: { public_key_pem: publicKeyPem, label, ...(approvalId ? { approval_id: approvalId } : {}) },
      });
    async untrustReleaseKey(keyId: string): Promise<void> {
      await this.call('DELETE /api/v1/settings/release-keys/:key_id', { params: { key_id: keyId } });
    }
  };
