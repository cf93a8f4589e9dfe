// Signed acceptance reports: the list, running acceptance on a cluster, the signed JSON and the HTML (English
// or French), and opening a report file to verify it offline, in the console, against a manager.pem (a file,
// or this manager's own key). The reports API may not exist on an older manager: `unavailable` says so.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { toApiError, type ApiClient, type ApiError } from '../../api/client';
import type { PublicKeyInfo, ReportSummary, SignedReport } from '../../api/types';
import type { LoadStatus } from '../clusters/store';
import { emptyList } from '../../stores/list';

/** The offline verifier's answer (preload/verify.ts). */
export type ReportCheck = { ok: true; payload: Record<string, unknown> } | { ok: false; code: string; message: string };
/** The verifier, loaded on first use (it carries the Ed25519 code the rest of the console does not need). */
export type VerifyFn = (jsonText: string, pemText: string) => ReportCheck | Promise<ReportCheck>;

export interface OpenedFile {
  name: string;
  text: string;
}

export interface ReportsState {
  clusterId: string | null;
  items: ReportSummary[];
  status: LoadStatus;
  error: ApiError | null;
  /** The manager has no reports API (its routes answer 404). */
  unavailable: boolean;
  run: { pending: boolean; clusterId: string | null; error: ApiError | null; report: SignedReport | null };
  keys: PublicKeyInfo[];
  keysStatus: LoadStatus;
  keysError: ApiError | null;
  /** A download or HTML fetch that failed. */
  fetchError: ApiError | null;
  report: OpenedFile | null;
  pem: (OpenedFile & { source: 'file' | 'manager' }) | null;
  check: ReportCheck | null;
  pemError: ApiError | null;

  load(clusterId?: string | null): Promise<void>;
  runAcceptance(clusterId: string): Promise<SignedReport | null>;
  fetchReport(id: string): Promise<SignedReport | null>;
  fetchHtml(id: string, lang: 'en' | 'fr'): Promise<string | null>;
  loadKeys(): Promise<void>;
  fetchManagerPem(): Promise<string | null>;
  openReportFile(file: OpenedFile | null): void;
  openPemFile(file: OpenedFile | null): void;
  useManagerKey(): Promise<boolean>;
  /** Verifies the opened report against the opened key, offline. */
  verify(): Promise<ReportCheck | null>;
  clearRun(): void;
  reset(): void;
}

export type ReportsStore = StoreApi<ReportsState>;

/** A 404 whose message says the route itself is missing (not a missing report or cluster). */
export function isMissingRoute(e: ApiError): boolean {
  return (e.status === 404 && /no API route/i.test(e.message)) || e.status === 405;
}

export function createReportsStore(deps: { client: ApiClient; verify: VerifyFn }): ReportsStore {
  const { client } = deps;
  const initial = {
    clusterId: null,
    ...emptyList<ReportSummary>(),
    unavailable: false,
    run: { pending: false, clusterId: null, error: null, report: null },
    keys: [] as PublicKeyInfo[],
    keysStatus: 'idle' as LoadStatus,
    keysError: null,
    fetchError: null,
    report: null,
    pem: null,
    check: null,
    pemError: null,
  };
  let seq = 0;

  return createStore<ReportsState>()((set, get) => ({
    ...initial,

    async load(clusterId) {
      const scope = clusterId === undefined ? get().clusterId : clusterId;
      const mine = ++seq;
      set({ clusterId: scope, status: get().status === 'ready' && get().clusterId === scope ? 'ready' : 'loading' });
      try {
        const { items } = await client.listReports(scope ?? undefined);
        if (mine !== seq) return;
        const rows = (Array.isArray(items) ? items : []).slice().sort((a, b) => (a.created_at < b.created_at ? 1 : -1));
        set({ items: rows, status: 'ready', error: null, unavailable: false });
      } catch (e) {
        if (mine !== seq) return;
        const error = toApiError(e);
        set({ status: 'error', error, unavailable: error.status === 404, items: [] });
      }
    },

    async runAcceptance(clusterId) {
      set({ run: { pending: true, clusterId, error: null, report: null } });
      try {
        const report = await client.runAcceptance(clusterId);
        set({ run: { pending: false, clusterId, error: null, report } });
        void get().load();
        return report;
      } catch (e) {
        const error = toApiError(e);
        set({ run: { pending: false, clusterId, error, report: null }, ...(isMissingRoute(error) ? { unavailable: true } : {}) });
        return null;
      }
    },

    async fetchReport(id) {
      set({ fetchError: null });
      try {
        return await client.getReport(id);
      } catch (e) {
        set({ fetchError: toApiError(e) });
        return null;
      }
    },

    async fetchHtml(id, lang) {
      set({ fetchError: null });
      try {
        return await client.reportHtml(id, lang);
      } catch (e) {
        set({ fetchError: toApiError(e) });
        return null;
      }
    },

    async loadKeys() {
      set({ keysStatus: 'loading', keysError: null });
      try {
        const { items } = await client.listKeys();
        set({ keys: Array.isArray(items) ? items : [], keysStatus: 'ready' });
      } catch (e) {
        set({ keysStatus: 'error', keysError: toApiError(e) });
      }
    },

    async fetchManagerPem() {
      set({ pemError: null });
      try {
        return await client.managerPem();
      } catch (e) {
        set({ pemError: toApiError(e) });
        return null;
      }
    },

    openReportFile(file) {
      set({ report: file, check: null });
    },

    openPemFile(file) {
      set({ pem: file ? { ...file, source: 'file' } : null, check: null, pemError: null });
    },

    async useManagerKey() {
      const text = await get().fetchManagerPem();
      if (text === null) return false;
      set({ pem: { name: 'manager.pem', text, source: 'manager' }, check: null });
      return true;
    },

    async verify() {
      const { report, pem } = get();
      if (!report || !pem) return null;
      let check: ReportCheck;
      try {
        check = await deps.verify(report.text, pem.text);
      } catch (e) {
        check = { ok: false, code: 'malformed', message: e instanceof Error ? e.message : String(e) };
      }
      // Another file may have been picked meanwhile: only the answer for what is shown counts.
      if (get().report !== report || get().pem !== pem) return null;
      set({ check });
      return check;
    },

    clearRun() {
      set({ run: initial.run });
    },

    reset() {
      seq++;
      set({ ...initial });
    },
  }));
}

/** The fields of a verified payload the console shows, read defensively (the payload came from a file). */
/** A text of the report in the console's language (reports carry both; older ones a plain string). */
export type BilingualText = string | { en?: string; fr?: string };

export function pickText(text: unknown, locale: 'en' | 'fr'): string {
  if (typeof text === 'string') return text;
  if (typeof text === 'object' && text !== null) {
    const t = text as { en?: unknown; fr?: unknown };
    const mine = t[locale];
    if (typeof mine === 'string') return mine;
    const other = t[locale === 'en' ? 'fr' : 'en'];
    if (typeof other === 'string') return other;
  }
  return '';
}

export interface VerifiedReport {
  reportId: string;
  /** sha256 (hex) of the signing public key, when the report names it. */
  keyFingerprint: string;
  clusterName: string;
  clusterId: string;
  createdAt: string;
  verdict: string;
  keyId: string;
  lines: { id: string; title: BilingualText; reason: BilingualText | null; status: string; evidence: unknown; ranAt: string | null }[];
}

export function readVerifiedPayload(payload: Record<string, unknown>): VerifiedReport {
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  const lines = Array.isArray(payload.lines) ? payload.lines : [];
  return {
    reportId: str(payload.report_id),
    keyFingerprint: str(payload.key_fingerprint),
    clusterName: str(payload.cluster_name),
    clusterId: str(payload.cluster_id),
    createdAt: str(payload.created_at),
    verdict: str(payload.verdict),
    keyId: str(payload.key_id),
    lines: lines.map((l, i) => {
      const o = (typeof l === 'object' && l !== null ? l : {}) as Record<string, unknown>;
      const evidence = (typeof o.evidence === 'object' && o.evidence !== null ? o.evidence : null) as Record<string, unknown> | null;
      const reason = evidence?.reason;
      return {
        id: str(o.id) || String(i + 1),
        title: typeof o.title === 'string' || (typeof o.title === 'object' && o.title !== null) ? (o.title as BilingualText) : '',
        reason: typeof reason === 'string' || (typeof reason === 'object' && reason !== null) ? (reason as BilingualText) : null,
        status: str(o.status),
        evidence: o.evidence ?? null,
        ranAt: str(o.ran_at) || null,
      };
    }),
  };
}
