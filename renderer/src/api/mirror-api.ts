// The console API calls of the Mirror screen: what the mirror holds, bundle imports, trusted release keys.
import type { ImportProgress, MirrorImportView, MirrorInventory, TrustedReleaseKey } from '../../../preload/api';
import { API_PREFIX, type ApiClient } from './client';

export type { ImportProgress, MirrorImportView, MirrorInventory, TrustedReleaseKey };

export interface MirrorApi {
  inventory(): Promise<MirrorInventory>;
  imports(): Promise<{ items: MirrorImportView[] }>;
  getImport(id: string): Promise<MirrorImportView>;
  /** Starts importing the bundle file at `path` on the manager's workstation (202: the import runs on). */
  startImport(path: string): Promise<MirrorImportView>;
  releaseKeys(): Promise<{ keys: TrustedReleaseKey[] }>;
  trustReleaseKey(publicKeyPem: string, label: string): Promise<TrustedReleaseKey>;
  untrustReleaseKey(keyId: string): Promise<void>;
}

export function mirrorApi(client: ApiClient): MirrorApi {
  return {
    inventory: () => client.request('GET', `${API_PREFIX}/mirror`),
    imports: () => client.request('GET', `${API_PREFIX}/mirror/imports`),
    getImport: (id) => client.request('GET', `${API_PREFIX}/mirror/imports/${encodeURIComponent(id)}`),
    startImport: (path) => client.request('POST', `${API_PREFIX}/mirror/imports`, { path }),
    releaseKeys: () => client.request('GET', `${API_PREFIX}/settings/release-keys`),
    trustReleaseKey: (public_key_pem, label) => client.request('POST', `${API_PREFIX}/settings/release-keys`, { public_key_pem, label }),
    untrustReleaseKey: async (keyId) => {
      await client.request<unknown>('DELETE', `${API_PREFIX}/settings/release-keys/${encodeURIComponent(keyId)}`);
    },
  };
}
