// The calls of the profile, preflight and backup routes (contract: contract/profiles.ts, contract/backups.ts).
import type { ProfileName } from '../../../../preload/api';
import type { ApiCoreClass } from '../../api/core';

export const profileCalls = <B extends ApiCoreClass>(Base: B) =>
  class extends Base {
    getProfile = (id: string) => this.call('GET /api/v1/clusters/:id/profile', { params: { id } });
    listProfiles = () => this.call('GET /api/v1/profiles');
    /** Leaving a four-eyes profile needs an approval (action configuration, service "profile"). */
    setProfile(id: string, profile: ProfileName, approvalId?: string) {
      return this.call('PUT /api/v1/clusters/:id/profile', {
        params: { id },
        body: approvalId ? { profile, approval_id: approvalId } : { profile },
      });
    }
    latestPreflight = (id: string) => this.call('GET /api/v1/clusters/:id/preflight', { params: { id } });
    runPreflight = (id: string) => this.call('POST /api/v1/clusters/:id/preflight', { params: { id } });
    listBackups = (id: string) => this.call('GET /api/v1/clusters/:id/backups', { params: { id } });
    createBackup = (id: string) => this.call('POST /api/v1/clusters/:id/backups', { params: { id } });
    /** Re-applies one component's spec from a backup set (its files re-hashed first by the manager). */
    restoreBackup(id: string, setId: string, service: string, approvalId?: string) {
      return this.call('POST /api/v1/clusters/:id/backups/:set/restore', {
        params: { id, set: setId },
        body: approvalId ? { service, approval_id: approvalId } : { service },
      });
    }
  };
