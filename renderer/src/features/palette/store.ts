// The command palette (Ctrl+K): open or closed, the query, the highlighted entry, and the ranking of entries
// (screens, clusters, actions) for a query. Entries are plain data; the palette component runs them.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ClusterTab, ScreenId, SettingsSection } from '../../stores/router';

export type PaletteTarget =
  | { kind: 'screen'; screen: ScreenId }
  | { kind: 'settings'; section: SettingsSection }
  | { kind: 'cluster'; clusterId: string; tab?: ClusterTab }
  | { kind: 'action'; action: 'new-cluster' | 'open-report' | 'verify-audit' | 'toggle-theme' | 'toggle-language' };

export interface PaletteEntry {
  id: string;
  group: 'screens' | 'clusters' | 'actions';
  label: string;
  /** Extra words that match (e.g. state, tenant, the English name of a screen). */
  keywords: string;
  hint?: string;
  target: PaletteTarget;
}

export interface PaletteState {
  open: boolean;
  query: string;
  active: number;
  show(): void;
  hide(): void;
  setQuery(query: string): void;
  /** Moves the highlight by `delta` among `count` entries (wraps around). */
  move(delta: number, count: number): void;
  setActive(index: number): void;
}

export type PaletteStore = StoreApi<PaletteState>;

export function createPaletteStore(): PaletteStore {
  return createStore<PaletteState>()((set, get) => ({
    open: false,
    query: '',
    active: 0,
    show() {
      set({ open: true, query: '', active: 0 });
    },
    hide() {
      if (get().open) set({ open: false });
    },
    setQuery(query) {
      set({ query, active: 0 });
    },
    move(delta, count) {
      if (count <= 0) return;
      set((s) => ({ active: (((s.active + delta) % count) + count) % count }));
    },
    setActive(index) {
      set({ active: index });
    },
  }));
}

export const MAX_CLUSTER_ENTRIES = 50;

/** Scores an entry for the query: every term must match; word starts and the label's start rank higher. */
export function scoreEntry(entry: PaletteEntry, terms: readonly string[]): number {
  if (terms.length === 0) return 1;
  const label = entry.label.toLowerCase();
  const hay = `${label} ${entry.keywords.toLowerCase()}`;
  let score = 0;
  for (const t of terms) {
    const i = hay.indexOf(t);
    if (i === -1) return 0;
    if (label.startsWith(t)) score += 30;
    else if (i < label.length && (i === 0 || /[\s\-._/]/.test(hay[i - 1] ?? ''))) score += 20;
    else if (/[\s\-._/]/.test(hay[i - 1] ?? '')) score += 10;
    else score += 5;
  }
  return score;
}

const GROUP_ORDER: Record<PaletteEntry['group'], number> = { actions: 0, screens: 1, clusters: 2 };

/** The entries matching the query, best first; at most MAX_CLUSTER_ENTRIES clusters. */
export function rankEntries(entries: readonly PaletteEntry[], query: string): PaletteEntry[] {
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  const scored = entries.map((e, i) => ({ e, i, s: scoreEntry(e, terms) })).filter((x) => x.s > 0);
  if (terms.length > 0) scored.sort((a, b) => b.s - a.s || GROUP_ORDER[a.e.group] - GROUP_ORDER[b.e.group] || a.i - b.i);
  const out: PaletteEntry[] = [];
  let clusters = 0;
  for (const { e } of scored) {
    if (e.group === 'clusters' && ++clusters > MAX_CLUSTER_ENTRIES) continue;
    out.push(e);
  }
  return out;
}
