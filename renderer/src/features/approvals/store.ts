// Four-eyes approvals: the list (filtered by cluster and state), requesting one, approving or rejecting another
// operator's request (admin). The usable approvals of the signed-in operator feed the pickers of the operations.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Approval, ApprovalQuery, ApprovalRequest } from '../../api/types';
import { emptyList, itemsOf, loadList, type ListState } from '../../stores/list';
import { coalescer, type LiveDeps, type LiveStore } from '../../stores/live';
import { IDLE, mutation, type MutationState } from '../../stores/mutation';

/** A request form prefilled from an operation refused with approval_required. */
export interface ApprovalDraft {
  cluster_id: string;
  action: string;
  service: string;
  /** The exact change the refused operation carried: the approval is bound to it. */
  change?: unknown;
}

export interface ApprovalsState extends ListState<Approval>, LiveStore {
  filter: ApprovalQuery;
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
}

export type ApprovalsStore = StoreApi<ApprovalsState>;

export function createApprovalsStore(deps: LiveDeps): ApprovalsStore {
  const { client } = deps;
  const initial = {
    filter: {} as ApprovalQuery,
    ...emptyList<Approval>(),
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
        const fetch = async (): Promise<Approval[]> => sortNewestFirst(itemsOf(await client.listApprovals(filter)));
        await loadList(get, set, fetch, () => get().filter === filter);
      },

      async request(input) {
        const done = await mutation(
          set,
          (creation) => ({ creation }),
          () => client.requestApproval(input),
        );
        if (done) {
          upsert(done.value);
          set({ draft: null });
        }
        return done?.value ?? null;
      },

      async decide(id, decision, note) {
        const place = (m: MutationState) => ({ decision: { ...m, id: m.pending || m.error ? id : null } });
        const done = await mutation(set, place, () => client.decideApproval(id, decision, note));
        if (done) upsert(done.value);
        return done?.value ?? null;
      },

      prefill(draft) {
        set({ draft, creation: IDLE });
      },

      clearCreationError() {
        set({ creation: IDLE });
      },

      handleEvent(event) {
        if (event.type === 'approval.changed') reload.trigger();
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
/** `clusterId` null: an act on the manager itself (a new admin, an admin's factor, a release key), of no cluster. */
export function usableApprovals(items: readonly Approval[], clusterId: string | null, action: string, service: string): Approval[] {
  return items.filter((a) => a.usable && a.cluster_id === clusterId && a.action === action && a.service === service);
}
