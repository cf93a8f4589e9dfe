// A write a store sends to the manager: pending while it runs, then idle, or its error kept to be shown. Every
// store runs its writes through `mutation`, which keeps that state where the store says.
import { toApiError, type ApiError } from '../api/client';

export interface MutationState {
  pending: boolean;
  error: ApiError | null;
}

export const IDLE: MutationState = { pending: false, error: null };

/** Runs `call`, with `place` putting its state in the store; resolves `{ value }`, or null when it failed. */
export async function mutation<S, T>(
  set: (partial: Partial<S>) => void,
  place: (state: MutationState) => Partial<S>,
  call: () => Promise<T>,
): Promise<{ value: T } | null> {
  set(place({ pending: true, error: null }));
  try {
    const value = await call();
    set(place(IDLE));
    return { value };
  } catch (e) {
    set(place({ pending: false, error: toApiError(e) }));
    return null;
  }
}
