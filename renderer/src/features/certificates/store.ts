// The certificates the product issued, as the manager lists them (soonest to expire first): the fleet screen's rows
// and the shell's alert, which counts the ones in use with under 14 days left. `focused` is the certificate the
// alert led to, which the screen scrolls to and marks.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { FleetCertificate } from '../../../../preload/api';
import type { ApiClient } from '../../api/client';
import { emptyList, itemsOf, loadList, type ListState } from '../../stores/list';

export interface CertificatesState extends ListState<FleetCertificate> {
  /** Only those flagged expiring (under 14 days, in use). */
  expiringOnly: boolean;
  focused: string | null;
  load(): Promise<void>;
  setExpiringOnly(on: boolean): void;
  /** Marks a certificate to scroll to (the alert's link); null clears it. */
  focus(serial: string | null): void;
  reset(): void;
}

export type CertificatesStore = StoreApi<CertificatesState>;

/** The certificates in use with under 14 days left, the soonest first (the manager's order). */
export const selectExpiring = (s: Pick<CertificatesState, 'items'>): FleetCertificate[] => s.items.filter((c) => c.expiring);

/** The rows the screen shows: all, or the expiring ones only. */
export const selectShown = (s: Pick<CertificatesState, 'items' | 'expiringOnly'>): FleetCertificate[] =>
  s.expiringOnly ? selectExpiring(s) : s.items;

export function createCertificatesStore(deps: { client: ApiClient }): CertificatesStore {
  return createStore<CertificatesState>()((set, get) => ({
    ...emptyList<FleetCertificate>(),
    expiringOnly: false,
    focused: null,
    load: () => loadList(get, set, async () => itemsOf(await deps.client.listCertificates())),
    setExpiringOnly: (on) => set({ expiringOnly: on }),
    focus: (serial) => set({ focused: serial }),
    reset: () => set({ ...emptyList<FleetCertificate>(), expiringOnly: false, focused: null }),
  }));
}
