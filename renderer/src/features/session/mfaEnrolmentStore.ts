// Setting up the second factor of the signed-in operator: a new TOTP secret (QR code and text), confirming it
// with a first code, and the recovery codes the manager shows exactly once.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { toApiError, type ApiClient, type ApiError } from '../../api/client';
import type { MfaEnrolment } from '../../api/types';

export interface MfaEnrolmentState {
  enrolment: MfaEnrolment | null;
  /** Shown once after the confirmation; forgotten by `finish`. */
  recoveryCodes: string[] | null;
  pending: boolean;
  error: ApiError | null;
  start(): Promise<boolean>;
  confirm(code: string): Promise<boolean>;
  /** The operator saved the recovery codes: forget them and the secret. */
  finish(): void;
  reset(): void;
}

export type MfaEnrolmentStore = StoreApi<MfaEnrolmentState>;

export function createMfaEnrolmentStore(deps: { client: ApiClient }): MfaEnrolmentStore {
  const { client } = deps;
  const initial = { enrolment: null, recoveryCodes: null, pending: false, error: null };
  return createStore<MfaEnrolmentState>()((set, get) => ({
    ...initial,
    async start() {
      set({ ...initial, pending: true });
      try {
        set({ enrolment: await client.startMfaEnrolment(), pending: false });
        return true;
      } catch (e) {
        set({ pending: false, error: toApiError(e) });
        return false;
      }
    },
    async confirm(code) {
      if (!get().enrolment) return false;
      set({ pending: true, error: null });
      try {
        const { recovery_codes } = await client.confirmMfaEnrolment(code.replace(/\s+/g, ''));
        set({ recoveryCodes: Array.isArray(recovery_codes) ? recovery_codes : [], enrolment: null, pending: false });
        return true;
      } catch (e) {
        set({ pending: false, error: toApiError(e) });
        return false;
      }
    },
    finish() {
      set({ ...initial });
    },
    reset() {
      set({ ...initial });
    },
  }));
}

/** The QR code as an image address: the server's SVG is never put in the DOM as markup. */
export function svgDataUrl(svg: string): string {
  const bytes = new TextEncoder().encode(svg);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `data:image/svg+xml;base64,${btoa(binary)}`;
}
