// The audit log: search by actor, cluster and action (exact matches, as the manager filters), newest first,
// loaded page by page (before_seq), and the verdict of the hash chain.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { toApiError, type ApiClient, type ApiError } from '../../api/client';
import type { AuditRow, AuditVerdict } from '../../api/types';
import type { LoadStatus } from '../clusters/store';
import { emptyList } from '../../stores/list';

export const AUDIT_PAGE = 200;

export interface AuditFilter {
  actor: string;
  cluster_id: string;
  action: string;
}

export interface AuditState {
  filter: AuditFilter;
  items: AuditRow[];
  status: LoadStatus;
  error: ApiError | null;
  hasMore: boolean;
  loadingMore: boolean;
  verdict: AuditVerdict | null;
  verifyStatus: LoadStatus;
  verifyError: ApiError | null;

  /** Sets the search and loads its first page. */
  search(filter: Partial<AuditFilter>): Promise<void>;
  load(): Promise<void>;
  loadMore(): Promise<void>;
  verify(): Promise<void>;
  reset(): void;
}

export type AuditStore = StoreApi<AuditState>;

export const EMPTY_AUDIT_FILTER: AuditFilter = { actor: '', cluster_id: '', action: '' };

export function createAuditStore(deps: { client: ApiClient; pageSize?: number }): AuditStore {
  const { client } = deps;
  const pageSize = deps.pageSize ?? AUDIT_PAGE;
  const initial = {
    filter: EMPTY_AUDIT_FILTER,
    ...emptyList<AuditRow>(),
    hasMore: false,
    loadingMore: false,
    verdict: null,
    verifyStatus: 'idle' as LoadStatus,
    verifyError: null,
  };
  let seq = 0;
  const query = (f: AuditFilter) => ({
    actor: f.actor.trim() || undefined,
    cluster_id: f.cluster_id.trim() || undefined,
    action: f.action.trim() || undefined,
    limit: pageSize,
  });

  return createStore<AuditState>()((set, get) => ({
    ...initial,

    async search(patch) {
      set((s) => ({ filter: { ...s.filter, ...patch } }));
      await get().load();
    },

    async load() {
      const mine = ++seq;
      set({ status: 'loading', error: null, loadingMore: false });
      try {
        const { items } = await client.listAudit(query(get().filter));
        if (mine !== seq) return;
        const rows = Array.isArray(items) ? items : [];
        set({ items: rows, status: 'ready', hasMore: rows.length >= pageSize });
      } catch (e) {
        if (mine !== seq) return;
        set({ status: 'error', error: toApiError(e), items: [], hasMore: false });
      }
    },

    async loadMore() {
      const { items, hasMore, loadingMore, status } = get();
      if (!hasMore || loadingMore || status !== 'ready') return;
      const last = items[items.length - 1];
      if (!last) return;
      const mine = seq;
      set({ loadingMore: true });
      try {
        const page = await client.listAudit({ ...query(get().filter), before_seq: last.seq });
        if (mine !== seq) return;
        const rows = Array.isArray(page.items) ? page.items : [];
        set((s) => ({
          items: [...s.items, ...rows.filter((r) => r.seq < last.seq)],
          hasMore: rows.length >= pageSize,
          loadingMore: false,
        }));
      } catch (e) {
        if (mine !== seq) return;
        set({ loadingMore: false, error: toApiError(e) });
      }
    },

    async verify() {
      set({ verifyStatus: 'loading', verifyError: null });
      try {
        const verdict = await client.verifyAudit();
        set({ verdict, verifyStatus: 'ready' });
      } catch (e) {
        set({ verifyStatus: 'error', verifyError: toApiError(e) });
      }
    },

    reset() {
      seq++;
      set({ ...initial });
    },
  }));
}

export function isFiltered(f: AuditFilter): boolean {
  return f.actor.trim() !== '' || f.cluster_id.trim() !== '' || f.action.trim() !== '';
}

/** The actions the manager writes today, offered as suggestions in the search. */
export const KNOWN_AUDIT_ACTIONS = [
  'cluster.create',
  'cluster.update',
  'cluster.delete',
  'cluster.register',
  'inventory.refresh',
  'agent.identity_issue',
  'command.managedcomponent.apply',
  'command.managedcomponent.delete',
  'command.inventory.report',
  'command.completed',
  'gateway.receipt_refused',
  'user.create',
  'token.create',
  'session.login',
  'session.login_failed',
  'session.logout',
] as const;
