// Where a verifier remembers the nonces it accepted, so a replayed command is refused. Synchronous, because
// every store behind it is (SQLite through better-sqlite3, a Map, the agent's cached ConfigMap).
export interface NonceStore {
  /** True if the nonce was remembered and not yet pruned. */
  seen(nonce: string): boolean;
  /** Remembers an accepted nonce until keepUntil: past it, the envelope is refused as expired anyway. */
  remember(nonce: string, keepUntil: Date): void;
  /** Forgets nonces whose keepUntil is before now; returns how many were forgotten. */
  prune(now: Date): number;
}

/** A NonceStore in a Map, for tests and for processes whose replay window does not outlive them. */
export class MemoryNonceStore implements NonceStore {
  private readonly keepUntil = new Map<string, number>();

  get size(): number {
    return this.keepUntil.size;
  }

  seen(nonce: string): boolean {
    return this.keepUntil.has(nonce);
  }

  remember(nonce: string, keepUntil: Date): void {
    // Never shorten a retention already promised to an earlier envelope with the same nonce.
    this.keepUntil.set(nonce, Math.max(keepUntil.getTime(), this.keepUntil.get(nonce) ?? -Infinity));
  }

  prune(now: Date): number {
    const limit = now.getTime();
    let removed = 0;
    for (const [nonce, until] of this.keepUntil) {
      if (until < limit) {
        this.keepUntil.delete(nonce);
        removed += 1;
      }
    }
    return removed;
  }
}
