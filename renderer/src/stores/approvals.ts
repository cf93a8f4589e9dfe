// Four-eyes approvals: the list (filtered by cluster and state), requesting one, approving or rejecting another
// operator's request (admin). The usable approvals of the signed-in operator feed the pickers of the operations.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ApiEvent } from '../../../preload/api';
import { toApiError, type ApiClient, type ApiError } from '../api/client';
import type { Approval, ApprovalQuery, ApprovalRequest } from '../api/types';
import type { LoadStatus, MutationState } from './clusters';
import { coalescer } from './live';

/** A request form prefilled from an operation refused with approval_required. */
export interface ApprovalDraft {
  cluster_id: string;
  action: string;
  service: string;
}

export interface ApprovalsState {
  filter: ApprovalQuery;
  items: Approval[];
  status: LoadStatus;
  error: ApiError | null;
  creation: MutationState;
  /** The approval being decided, and why it failed. */
  decision: MutationState & { id: string | null };
  draft: ApprovalDraft | null;

  setFilter(filter: ApprovalQuery): Promise<void>;
  load(): Promise<void>;
  request(input: ApprovalRequest): Promise<Approval | null>;
  decide(id: string, decision: 'approve' | 'reject', note?: string): Promise<Approval | null>;
  /** Opens the request form with these values (from an approval_required refusal). */
  prefill(draft: ApprovalDraft | null): void;
  clearCreationError(): void;
  handleEvent(event: ApiEvent): void;
  startLive(): () => void;
  reset(): void;
}

export type ApprovalsStore = StoreApi<ApprovalsState>;

const IDLE: MutationState = { pending: false, error: null };

export function createApprovalsStore(deps: { client: ApiClient; eventDebounceMs?: number }): ApprovalsStore {
  const { client } = deps;
  const initial = {
    filter: {} as ApprovalQuery,
    items: [] as Approval[],
    status: 'idle' as LoadStatus,
    error: null,
    creation: IDLE,
    decision: { ...IDLE, id: null },
    draft: null,
  };
  return createStore<ApprovalsState>()((set, get) => {
    const reload = coalescer(deps.eventDebounceMs ?? 150, () => {
      if (get().status !== 'idle') void get().load();
    });
    const upsert = (a: Approval): void => set((s) => ({ items: sortNewestFirst([a, ...s.items.filter((x) => x.id !== a.id)]) }));
    return {
      ...initial,

      async setFilter(filter) {
        set({ filter, status: 'loading' });
        await get().load();
      },

      async load() {
        const filter = get().filter;
        if (get().status !== 'ready') set({ status: 'loading' });
        try {
          const { items } = await client.listApprovals(filter);
          if (get().filter !== filter) return;
          set({ items: sortNewestFirst(Array.isArray(items) ? items : []), status: 'ready', error: null });
        } catch (e) {
          if (get().filter !== filter) return;
          set({ status: get().items.length > 0 ? 'ready' : 'error', error: toApiError(e) });
        }
      },

      async request(input) {
        set({ creation: { pending: true, error: null } });
        try {
          const approval = await client.requestApproval(input);
          upsert(approval);
          set({ creation: IDLE, draft: null });
          return approval;
        } catch (e) {
          set({ creation: { pending: false, error: toApiError(e) } });
          return null;
        }
      },

      async decide(id, decision, note) {
        set({ decision: { pending: true, error: null, id } });
        try {
          const approval = await client.decideApproval(id, decision, note);
          upsert(approval);
          set({ decision: { ...IDLE, id: null } });
          return approval;
        } catch (e) {
          set({ decision: { pending: false, error: toApiError(e), id } });
          return null;
        }
      },

      prefill(draft) {
        set({ draft, creation: IDLE });
      },

      clearCreationError() {
        set({ creation: IDLE });
      },

      handleEvent(event) {
        if (event.type.startsWith('approval.')) reload.trigger();
      },

      startLive() {
        return client.onEvent((event) => get().handleEvent(event));
      },

      reset() {
        reload.cancel();
        set({ ...initial });
      },
    };
  });
}

function sortNewestFirst(items: Approval[]): Approval[] {
  return items.slice().sort((a, b) => (a.requested_at < b.requested_at ? 1 : a.requested_at > b.requested_at ? -1 : 0));
}

/** The approvals this operator can launch `action` on `service` of `cluster` with. */
export function usableApprovals(items: readonly Approval[], clusterId: string, action: string, service: string): Approval[] {
  return items.filter((a) => a.usable && a.cluster_id === clusterId && a.action === action && a.service === service);
}
