// A key/value storage for persisted preferences that never throws: localStorage when usable, else memory
// (file:// quirks, disabled storage, or unit tests in Node).
import type { StateStorage } from 'zustand/middleware';

export function memoryStorage(initial: Record<string, string> = {}): StateStorage<void> & { dump(): Record<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (name) => data.get(name) ?? null,
    setItem: (name, value) => {
      data.set(name, value);
    },
    removeItem: (name) => {
      data.delete(name);
    },
    dump: () => Object.fromEntries(data),
  };
}

export function safeLocalStorage(): StateStorage<void> {
  const fallback = memoryStorage();
  const local = (): Storage | null => {
    try {
      return typeof globalThis.localStorage === 'object' && globalThis.localStorage !== null ? globalThis.localStorage : null;
    } catch {
      return null;
    }
  };
  return {
    getItem: (name) => {
      try {
        return local()?.getItem(name) ?? fallback.getItem(name);
      } catch {
        return fallback.getItem(name);
      }
    },
    setItem: (name, value) => {
      fallback.setItem(name, value);
      try {
        local()?.setItem(name, value);
      } catch {
        // quota or disabled storage: the in-memory copy keeps the preference for this run
      }
    },
    removeItem: (name) => {
      fallback.removeItem(name);
      try {
        local()?.removeItem(name);
      } catch {
        // ignore
      }
    },
  };
}
