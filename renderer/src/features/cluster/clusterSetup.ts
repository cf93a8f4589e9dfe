// The two wizards of a cluster page: importing the cluster (the import RBAC YAML, then registration with the
// navin-import kubeconfig) and installing its agent (a new identity, shown once, then the manifests pinned by
// digest). The identity's private key lives in memory only, until the operator says the files are saved, the
// page changes cluster, or the operator signs out.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { toApiError, type ApiClient, type ApiError } from '../../api/client';
import type { AgentIdentity, AgentIdentityRequest, IdentityFileName, RegistrationResult } from '../../api/types';
import type { LoadStatus } from '../clusters/store';

export interface TextResource {
  status: LoadStatus;
  /** The namespace or image the text was produced for. */
  key: string | null;
  text: string | null;
  error: ApiError | null;
}

export interface ClusterSetupState {
  clusterId: string | null;
  rbac: TextResource;
  registration: { pending: boolean; result: RegistrationResult | null; error: ApiError | null };
  identity: { pending: boolean; result: AgentIdentity | null; error: ApiError | null; saved: IdentityFileName[] };
  manifests: TextResource;

  /** The wizards now work on this cluster (everything of another cluster is forgotten). */
  bind(clusterId: string): void;
  loadRbac(namespace: string): Promise<void>;
  register(kubeconfig: string, namespace: string): Promise<RegistrationResult | null>;
  clearRegistration(): void;
  issueIdentity(req: AgentIdentityRequest): Promise<AgentIdentity | null>;
  clearIdentityError(): void;
  markSaved(file: IdentityFileName): void;
  /** Drops the identity's files (the private key) from memory. */
  forgetIdentity(): void;
  loadManifests(image: string): Promise<void>;
  reset(): void;
}

export type ClusterSetupStore = StoreApi<ClusterSetupState>;

const EMPTY_TEXT: TextResource = { status: 'idle', key: null, text: null, error: null };

export interface ClusterSetupDeps {
  client: ApiClient;
  /** A registration succeeded (the cluster page shows its inventory). */
  onRegistered?: (result: RegistrationResult) => void;
}

export function createClusterSetupStore(deps: ClusterSetupDeps): ClusterSetupStore {
  const { client } = deps;
  const initial = {
    clusterId: null,
    rbac: EMPTY_TEXT,
    registration: { pending: false, result: null, error: null },
    identity: { pending: false, result: null, error: null, saved: [] as IdentityFileName[] },
    manifests: EMPTY_TEXT,
  };
  // Each load of a text counts; an answer overtaken by a newer load (or another cluster) is dropped.
  const seqs = { rbac: 0, manifests: 0 };

  return createStore<ClusterSetupState>()((set, get) => {
    /** Loads a text for `key`; `keep`: the text of the same key stays shown while it is read again. */
    const loadText = async (slot: 'rbac' | 'manifests', key: string, keep: boolean, fetch: (id: string) => Promise<string>) => {
      const id = get().clusterId;
      if (!id) return;
      const seq = ++seqs[slot];
      set((s) => ({ [slot]: { status: 'loading', key, text: keep && s[slot].key === key ? s[slot].text : null, error: null } }));
      try {
        const text = await fetch(id);
        if (seq === seqs[slot]) set({ [slot]: { status: 'ready', key, text, error: null } });
      } catch (e) {
        if (seq === seqs[slot]) set({ [slot]: { status: 'error', key, text: null, error: toApiError(e) } });
      }
    };
    return {
      ...initial,

      bind(clusterId) {
        if (get().clusterId === clusterId) return;
        seqs.rbac++;
        seqs.manifests++;
        set({ ...initial, clusterId });
      },

      loadRbac(namespace) {
        return loadText('rbac', namespace, true, (id) => client.importRbac(id, namespace));
      },

      async register(kubeconfig, namespace) {
        const id = get().clusterId;
        if (!id) return null;
        set({ registration: { pending: true, result: null, error: null } });
        try {
          const result = await client.register(id, { kubeconfig, namespace });
          deps.onRegistered?.(result);
          if (get().clusterId !== id) return null;
          set({ registration: { pending: false, result, error: null } });
          return result;
        } catch (e) {
          if (get().clusterId === id) set({ registration: { pending: false, result: null, error: toApiError(e) } });
          return null;
        }
      },

      clearRegistration() {
        set({ registration: initial.registration });
      },

      async issueIdentity(req) {
        const id = get().clusterId;
        if (!id) return null;
        set({ identity: { pending: true, result: null, error: null, saved: [] } });
        try {
          const result = await client.issueAgentIdentity(id, req);
          if (get().clusterId !== id) return null;
          set({ identity: { pending: false, result, error: null, saved: [] } });
          return result;
        } catch (e) {
          if (get().clusterId === id) set({ identity: { pending: false, result: null, error: toApiError(e), saved: [] } });
          return null;
        }
      },

      clearIdentityError() {
        set((s) => ({ identity: { ...s.identity, error: null } }));
      },

      markSaved(file) {
        set((s) => (s.identity.saved.includes(file) ? s : { identity: { ...s.identity, saved: [...s.identity.saved, file] } }));
      },

      forgetIdentity() {
        set({ identity: initial.identity });
      },

      loadManifests(image) {
        return loadText('manifests', image, false, (id) => client.agentManifests(id, image));
      },

      reset() {
        seqs.rbac++;
        seqs.manifests++;
        set({ ...initial });
      },
    };
  });
}
